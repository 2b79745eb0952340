import { describeFuzz } from './fuzz/fuzz-suite';

// The portal's operations in a file of their own, so that a second jest worker fuzzes them beside the API's.
describeFuzz('portal', (op) => op.path.startsWith('/portal/'));
