'use strict';
// A gRPC service the harness did not write, for its tests: @grpc/grpc-js serving shop.v1.Orders (orders.proto, one
// method of each kind) on 127.0.0.1, with server reflection (@grpc/reflection) unless --no-reflection.
// It prints one line, "listening 127.0.0.1:PORT", once it accepts calls, and ends on SIGTERM, SIGINT or when its
// standard input closes (the test that started it ended, however it ended).
//
// Usage: node server.js [--port N] [--cert FILE --key FILE [--client-ca FILE]] [--no-reflection]
//   --port N          the port on 127.0.0.1 (0, the default: a free one, printed)
//   --cert, --key     serve TLS with this certificate chain and key (PEM); without them, plain text (h2c)
//   --client-ca FILE  mTLS: require a client certificate, verified against this CA (PEM)
//   --no-reflection   no reflection service: a client must describe the service with orders.proto
const fs = require('node:fs');
const path = require('node:path');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');
const { ReflectionService } = require('@grpc/reflection');

const MaxListed = 10000;
const options = parseArguments(process.argv.slice(2));

// keepCase: the handlers see the .proto's own snake_case names (order_id), as a server in any other language would.
const definition = protoLoader.loadSync(path.join(__dirname, 'orders.proto'), { keepCase: true, longs: String, enums: String, defaults: true });
const orders = grpc.loadPackageDefinition(definition).shop.v1.Orders;

const server = new grpc.Server();
server.addService(orders.service, { GetOrder, ListOrders, UploadOrders, TrackOrders });
if (options.reflection) {
  new ReflectionService(definition).addToServer(server);
}

server.bindAsync(`127.0.0.1:${options.port}`, credentials(options), (error, port) => {
  if (error) {
    console.error(`cannot listen on 127.0.0.1:${options.port}: ${error.message}`);
    process.exit(1);
  }
  console.log(`listening 127.0.0.1:${port}`);
});

process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.stdin.on('end', stop);
process.stdin.resume();

function GetOrder(call, callback) {
  const missing = missingFields(call.request, ['order_id', 'customer_name']);
  if (missing) {
    callback(missing);
    return;
  }
  const { order_id, customer_name } = call.request;
  callback(null, sampleOrder(order_id, customer_name));
}

async function ListOrders(call) {
  const { customer_name, item_count } = call.request;
  const missing = missingFields(call.request, ['customer_name']);
  if (missing || item_count < 1 || item_count > MaxListed) {
    call.emit('error', missing ?? invalid(`item_count must be 1 to ${MaxListed}, not ${item_count}`));
    return;
  }
  for (let i = 1; i <= item_count && !call.cancelled; i++) {
    // Waits for the client when its flow-control window is full, so 10,000 orders never pile up in memory.
    if (!call.write(sampleOrder(`${customer_name}-${i}`, customer_name))) {
      await drainedOrCancelled(call);
    }
  }
  call.end();
}

function drainedOrCancelled(call) {
  return new Promise((resolve) => {
    const done = () => {
      call.off('drain', done);
      call.off('cancelled', done);
      resolve();
    };
    call.once('drain', done);
    call.once('cancelled', done);
  });
}

function UploadOrders(call, callback) {
  const summary = { order_count: 0, line_item_count: 0, total_cents: 0n };
  let refused = false;
  call.on('data', (order) => {
    const missing = missingFields(order, ['order_id']) ?? order.line_items.map((item) => missingFields(item, ['sku'])).find(Boolean);
    if (refused || missing) {
      // The first refusal is the call's status; what the client sends after it is read and dropped.
      if (!refused) {
        refused = true;
        callback(missing);
      }
      return;
    }
    summary.order_count++;
    summary.line_item_count += order.line_items.length;
    for (const item of order.line_items) {
      summary.total_cents += BigInt(item.unit_price_cents);
    }
  });
  call.on('end', () => {
    if (!refused) {
      callback(null, { ...summary, total_cents: summary.total_cents.toString() });
    }
  });
}

function TrackOrders(call) {
  let sequence = 0;
  call.on('data', (request) => {
    const missing = missingFields(request, ['order_id']);
    if (missing) {
      call.emit('error', missing);
      return;
    }
    sequence++;
    call.write({ order_id: request.order_id, sequence_number: sequence, order_status: 'RECEIVED' });
  });
  call.on('end', () => call.end());
}

function sampleOrder(orderId, customerName) {
  const lineItems = [
    { sku: 'SKU-1', unit_price_cents: '1250' },
    { sku: 'SKU-2', unit_price_cents: '399' },
  ];
  return { order_id: orderId, customer_name: customerName, item_count: lineItems.length, line_items: lineItems };
}

// INVALID_ARGUMENT naming the empty fields by their .proto names, or null when every field is set: a client that maps
// a field to the wrong name leaves it empty, so its calls fail instead of passing unnoticed.
function missingFields(message, names) {
  const empty = names.filter((name) => !message[name]);
  return empty.length === 0 ? null : invalid(`${empty.join(', ')} ${empty.length === 1 ? 'is' : 'are'} empty`);
}

function invalid(details) {
  return { code: grpc.status.INVALID_ARGUMENT, details };
}

function credentials({ cert, key, clientCa }) {
  if (!cert) {
    return grpc.ServerCredentials.createInsecure();
  }
  const rootCerts = clientCa ? fs.readFileSync(clientCa) : null;
  return grpc.ServerCredentials.createSsl(rootCerts, [{ cert_chain: fs.readFileSync(cert), private_key: fs.readFileSync(key) }], Boolean(clientCa));
}

function parseArguments(args) {
  const parsed = { port: 0, cert: null, key: null, clientCa: null, reflection: true };
  const values = { '--port': 'port', '--cert': 'cert', '--key': 'key', '--client-ca': 'clientCa' };
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--no-reflection') {
      parsed.reflection = false;
    } else if (values[args[i]] && i + 1 < args.length) {
      parsed[values[args[i]]] = args[++i];
    } else {
      usage(`unknown or incomplete argument '${args[i]}'`);
    }
  }
  if (!/^\d+$/.test(String(parsed.port)) || Number(parsed.port) > 65535) {
    usage(`--port takes 0 to 65535, not '${parsed.port}'`);
  }
  if (Boolean(parsed.cert) !== Boolean(parsed.key)) {
    usage('--cert and --key go together');
  }
  if (parsed.clientCa && !parsed.cert) {
    usage('--client-ca needs --cert and --key (mTLS is TLS first)');
  }
  return parsed;
}

function usage(message) {
  console.error(`error: ${message}\nusage: node server.js [--port N] [--cert FILE --key FILE [--client-ca FILE]] [--no-reflection]`);
  process.exit(2);
}

// Lets calls in flight finish for a second, then ends them: a test's dispose must not wait on a client.
let stopping = false;
function stop() {
  if (stopping) {
    return;
  }
  stopping = true;
  setTimeout(() => {
    server.forceShutdown();
    process.exit(0);
  }, 1000);
  server.tryShutdown(() => process.exit(0));
}
