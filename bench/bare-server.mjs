// The bare side of the same-bytes ratio, in processes of its own as the store is: node:http
// sending one captured answer (body from a file, headers as JSON), in `processes` processes sharing
// a port through node:cluster (as `npm start` shares the store's). Prints {"port"} once listening.
// node bench/bare-server.mjs <body file> <headers JSON> <processes>
import cluster from "node:cluster";
import fs from "node:fs";
import http from "node:http";

const [bodyFile, headersJson, processes = "1"] = process.argv.slice(2);
const count = Number(processes);

function serve() {
  const body = fs.readFileSync(bodyFile);
  const headers = JSON.parse(headersJson);
  const server = http.createServer((_req, res) => res.writeHead(200, headers).end(body));
  server.keepAliveTimeout = 65_000;
  return server;
}

if (count > 1 && cluster.isPrimary) {
  for (let i = 0; i < count; i++) cluster.fork();
  let listening = 0;
  cluster.on("listening", (_worker, address) => {
    if (++listening === count) console.log(JSON.stringify({ port: address.port }));
  });
} else if (cluster.isWorker) {
  serve().listen(0, "127.0.0.1");
} else {
  const server = serve().listen(0, "127.0.0.1", () => console.log(JSON.stringify({ port: server.address().port })));
}
