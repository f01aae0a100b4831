'use strict';
// A SOAP server the harness did not write: the npm soap package serving calculator.wsdl at /calculator on
// 127.0.0.1 (a free port, printed as "listening PORT"); any other path answers 404. Add answers the sum; Divide by
// 0 answers a soap:Client fault. It checks the request's elements in order, as a strict server would.
// Usage: node soap-server.js WSDL
const fs = require('fs');
const http = require('http');
const soap = require('soap');

const wsdl = fs.readFileSync(process.argv[2], 'utf8');
const service = {
  CalculatorService: {
    CalculatorPort: {
      Add(args) {
        return { AddResult: Number(args.a) + Number(args.b) };
      },
      Divide(args) {
        if (Number(args.divisor) === 0) {
          throw { Fault: { faultcode: 'soap:Client', faultstring: 'divisor is 0' } };
        }
        return { DivideResult: Math.trunc(Number(args.dividend) / Number(args.divisor)) };
      },
    },
  },
};

const server = http.createServer((request, response) => {
  response.statusCode = 404;
  response.end();
});
server.listen(0, '127.0.0.1', () => {
  soap.listen(server, '/calculator', service, wsdl, (error) => {
    if (error) {
      console.error(error.message);
      process.exit(1);
    }
    console.log(`listening ${server.address().port}`);
  });
});

process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
