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
/// <c>--insecure</c>); the WCF client takes http:// only.
/// </remarks>
public static class HarnessClients
{
    /// <summary>A client of a SOAP service: <paramref name="client"/> is <see cref="SoapClients.Lean"/> or <see cref="SoapClients.Wcf"/>.</summary>
    /// <exception cref="ArgumentException">An https:// address for the WCF client, which is not given TLS here.</exception>
    public static IHarnessClient Soap(
        Uri address, string client, TimeSpan? timeout = null, int? maxMessageSize = null, ILoggerFactory? loggerFactory = null, ClientTls? tls = null) =>
        client == SoapClients.Wcf
            ? address.Scheme == Uri.UriSchemeHttps
                ? throw new ArgumentException(WcfRefusesHttps, nameof(address))
                : new HarnessSoapClient(address, timeout ?? CallTimeouts.Default, maxMessageSize)
            : new LeanSoapClient(address, timeout, maxMessageSize ?? MessageSizes.Default, loggerFactory, tls);

    /// <summary>A client of a gRPC service: <paramref name="client"/> is <see cref="GrpcClients.Lean"/> or <see cref="GrpcClients.GrpcNet"/>.</summary>
    public static IHarnessClient Grpc(
        Uri address, string client = GrpcClients.Lean, TimeSpan? timeout = null, int? maxMessageSize = null, ILoggerFactory? loggerFactory = null,
        ClientTls? tls = null) =>
        client == GrpcClients.GrpcNet
            ? new GrpcNetHarnessClient(address, timeout, maxMessageSize ?? MessageSizes.Default, tls)
            : new Http2GrpcClient(address, timeout: timeout, maxReceiveMessageSize: maxMessageSize ?? MessageSizes.Default, loggerFactory: loggerFactory, tls: tls);

    /// <summary>Why an https:// SOAP target cannot go with <c>--soap-client wcf</c>.</summary>
    public const string WcfRefusesHttps =
        "--soap-client wcf speaks http:// only; an https:// soap target is loaded by the lean client (--soap-client lean, the default), and https:// grpc targets by both gRPC clients (lean, grpcnet).";
}
