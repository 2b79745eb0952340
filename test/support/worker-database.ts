// Runs before each e2e suite: its worker's own database becomes the run's database for that suite.
const own = process.env[`TEST_DATABASE_URL_${process.env.JEST_WORKER_ID ?? '1'}`];
if (own) process.env.TEST_DATABASE_URL = own;
