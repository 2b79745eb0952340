import cluster from 'node:cluster';
import { runPrimary } from './cluster';
import { AppConfig, ConfigError, loadConfig } from './config/app-config';
import { LogOutput } from './logging/logger';

function configOrExit(): AppConfig {
  try {
    return loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(1);
    }
    throw e;
  }
}

const config = configOrExit();
// A cluster's primary serves nothing: it never loads the application (about 100 MB it would hold for nothing).
if (config.workers > 1 && cluster.isPrimary) runPrimary(config.workers, new LogOutput(config).root);
else void import('./serve.js').then(({ serve }) => serve(config));
