import { describeFuzz } from './fuzz/fuzz-suite';

describeFuzz('API', (op) => !op.path.startsWith('/portal/'));
