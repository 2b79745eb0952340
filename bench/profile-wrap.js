// The service under the V8 sampling profiler (bench:profile): SIGUSR2 starts a profile of the main thread, the next
// SIGUSR2 writes it to PROFILE_OUT.<n>.cpuprofile (Chrome DevTools' format). NODE_OPTIONS cannot carry --cpu-prof.
'use strict';
const inspector = require('node:inspector');
const { writeFileSync } = require('node:fs');

const session = new inspector.Session();
session.connect();
let running = false;
let written = 0;
process.on('SIGUSR2', () => {
  if (!running) {
    session.post('Profiler.enable');
    session.post('Profiler.setSamplingInterval', { interval: Number(process.env.PROFILE_INTERVAL_US ?? 250) });
    session.post('Profiler.start');
    running = true;
    return;
  }
  session.post('Profiler.stop', (err, result) => {
    if (err) throw err;
    writeFileSync(`${process.env.PROFILE_OUT}.${written++}.cpuprofile`, JSON.stringify(result.profile));
  });
  running = false;
});
require(process.env.PROFILE_MAIN);
