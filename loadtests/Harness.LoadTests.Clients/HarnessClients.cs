using Harness.Contracts;
using Harness.LoadTests.Clients.Grpc;
using Harness.LoadTests.Clients.Grpc.Http2;
using Harness.LoadTests.Clients.Soap;
using Microsoft.Extensions.Logging;

namespace Harness.LoadTests.Clients;

/// <summary>
/// The client of a stack for the harness's own operations: the lean ones, or Grpc.Net.Client and SOAP's WCF client
/// when asked (<c>--grpc-client grpcnet</c>, <c>--soap-client wcf</c>).
/// </summary>
/// <remarks>
/// Every client takes, in its own terms, each call's timeout (<c>--timeout</c>; <see cref="CallTimeouts.Default"/> when
/// null): a gRPC deadline (and <c>grpc-timeout</c>), the lean SOAP client's exchange, the WCF binding's send and receive
/// timeouts; and the largest reply it takes (<c>--max-message-size</c>): a gRPC message, the lean SOAP client's reply
/// body, the WCF binding's MaxReceivedMessageSize; when null each client's default: 4 MiB, the WCF binding's 64 KiB.
/// The lean clients log their connections' events to the logger factory (<c>--log-level</c>); nowhere when null.
/// An https:// address is trusted as <see cref="ClientTls"/> says (<c>--cacert</c>, <c>--cert</c>, <c>--key</c>,
/// <c>--insecure</c>); the WCF client's handshake is bounded by its send timeout, not the connect bound.
/// </remarks>
public static class HarnessClients
{
    /// <summary>A client of a SOAP service: <paramref name="client"/> is <see cref="SoapClients.Lean"/> or <see cref="SoapClients.Wcf"/>.</summary>
    public static IHarnessClient Soap(
        Uri address, string client, TimeSpan? timeout = null, int? maxMessageSize = null, ILoggerFactory? loggerFactory = null, ClientTls? tls = null) =>
        client == SoapClients.Wcf
            ? new HarnessSoapClient(
                address, timeout ?? CallTimeouts.Default, maxMessageSize, (tls ?? ClientTls.System).For(host: null, System.Net.Security.SslApplicationProtocol.Http11))
            : new LeanSoapClient(address, timeout, maxMessageSize ?? MessageSizes.Default, loggerFactory, tls);

    /// <summary>A client of a gRPC service: <paramref name="client"/> is <see cref="GrpcClients.Lean"/> or <see cref="GrpcClients.GrpcNet"/>.</summary>
    public static IHarnessClient Grpc(
        Uri address, string client = GrpcClients.Lean, TimeSpan? timeout = null, int? maxMessageSize = null, ILoggerFactory? loggerFactory = null,
        ClientTls? tls = null) =>
        client == GrpcClients.GrpcNet
            ? new GrpcNetHarnessClient(address, timeout, maxMessageSize ?? MessageSizes.Default, tls)
            : new Http2GrpcClient(address, timeout: timeout, maxReceiveMessageSize: maxMessageSize ?? MessageSizes.Default, loggerFactory: loggerFactory, tls: tls);
}
