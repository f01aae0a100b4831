'use strict';
// A gRPC server the harness did not write: @grpc/grpc-js serving helloworld.Greeter on 127.0.0.1 (a free port,
// printed as "listening PORT"), with @grpc/reflection unless --no-reflection. --key K makes SayHello answer
// UNAUTHENTICATED to a call without the header x-api-key: K; --name-pattern RE makes it answer INVALID_ARGUMENT to a
// name that RE does not match (a test's proof that every name came from its data feed). SayHellos, CountHellos and
// Chat are a server, a client and a bidirectional stream.
// Usage: node grpc-server.js PROTO [--no-reflection] [--key K] [--name-pattern RE]
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');

const [protoFile, ...flags] = process.argv.slice(2);
const key = flags.includes('--key') ? flags[flags.indexOf('--key') + 1] : null;
const namePattern = flags.includes('--name-pattern') ? new RegExp(flags[flags.indexOf('--name-pattern') + 1]) : null;
const definition = protoLoader.loadSync(protoFile, { keepCase: true, longs: String, enums: String, defaults: true });
const greeter = grpc.loadPackageDefinition(definition).helloworld.Greeter;

const server = new grpc.Server();
server.addService(greeter.service, {
  SayHello(call, callback) {
    if (key !== null && call.metadata.get('x-api-key')[0] !== key) {
      callback({ code: grpc.status.UNAUTHENTICATED, details: 'x-api-key is missing or wrong' });
      return;
    }
    if (!call.request.name) {
      callback({ code: grpc.status.INVALID_ARGUMENT, details: 'name is empty' });
      return;
    }
    if (namePattern !== null && !namePattern.test(call.request.name)) {
      callback({ code: grpc.status.INVALID_ARGUMENT, details: `name ${JSON.stringify(call.request.name)} does not match ${namePattern}` });
      return;
    }
    callback(null, { message: `Hello ${call.request.name}` });
  },
  // A server stream of `times` replies (at most 1,000), each its own write; a negative `times` is a stream that never
  // ends, a reply a millisecond until the client gives up (a test's hostile server).
  SayHellos(call) {
    if (!call.request.name) {
      call.emit('error', { code: grpc.status.INVALID_ARGUMENT, details: 'name is empty' });
      return;
    }
    if (call.request.times < 0) {
      const timer = setInterval(() => call.write({ message: `Hello ${call.request.name}, again` }), 1);
      call.on('cancelled', () => clearInterval(timer));
      call.on('close', () => clearInterval(timer));
      return;
    }
    for (let i = 1; i <= Math.min(call.request.times, 1000); i++) {
      call.write({ message: `Hello ${call.request.name} #${i}` });
    }
    call.end();
  },
  // A client stream: one reply naming how many requests came and their names, refused if a name is empty.
  CountHellos(call, callback) {
    const names = [];
    call.on('data', request => names.push(request.name));
    call.on('end', () => {
      if (names.some(name => !name)) {
        callback({ code: grpc.status.INVALID_ARGUMENT, details: 'a name is empty' });
        return;
      }
      callback(null, { message: `${names.length} hellos: ${names.join(',')}` });
    });
  },
  // A bidirectional stream: one reply per request, as it comes.
  Chat(call) {
    call.on('data', request => call.write({ message: `Hello ${request.name}` }));
    call.on('end', () => call.end());
  },
});

if (!flags.includes('--no-reflection')) {
  const { ReflectionService } = require('@grpc/reflection');
  new ReflectionService(definition).addToServer(server);
}

server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, port) => {
  if (error) {
    console.error(error.message);
    process.exit(1);
  }
  console.log(`listening ${port}`);
});

// Ends with the test that started it, however the test ends: its end of our standard input closes.
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
