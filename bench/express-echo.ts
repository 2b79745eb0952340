/**
 * The reference of `npm run bench`: the bare Express server anyone would start, in its own process as the service
 * runs in its own. POST answers the JSON body it was sent; GET answers its path. No validation, no logging, no
 * headers of ours: what Express and Node cost on this machine, and so the most a NestJS route on Express can reach.
 */
import express from 'express';

const app = express();
app.use(express.json());
app.post('/{*path}', (req, res) => {
  res.json(req.body);
});
app.get('/{*path}', (req, res) => {
  res.json({ path: req.path });
});
const server = app.listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('listening'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
