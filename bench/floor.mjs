// The HTTP floor: a bare node:http server answering 'ok' to everything, in its own process,
// measured by the same client as the services: what one Node process on this box can answer.
//   node bench/floor.mjs <port>
import http from 'node:http';

http
  .createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end('ok'));
  })
  .listen(Number(process.argv[2]), '127.0.0.1', () => console.log('floor ready'));
