using Harness.Contracts;
using Harness.LoadTests.Calls;
using Harness.LoadTests.Calls.Grpc;
using Harness.LoadTests.Calls.Grpc.Http2;
using Harness.LoadTests.Calls.Soap;
using Harness.LoadTests.Targets;
using Microsoft.Extensions.Logging;

namespace Harness.LoadTests.Scenarios;

/// <summary>
/// The client of a target's stack for the harness's own operations: the lean ones, or Grpc.Net.Client and SOAP's WCF
/// client when asked (<c>--grpc-client grpcnet</c>, <c>--soap-client wcf</c>).
/// </summary>
internal static class HarnessClients
{
    /// <param name="timeout">Each call's timeout (<c>--timeout</c>; <see cref="CallTimeouts.Default"/> when null), in the client's own
    /// terms: a gRPC deadline (and <c>grpc-timeout</c>), the lean SOAP client's exchange, the WCF binding's send and receive timeouts.</param>
    /// <param name="maxMessageSize">The largest reply taken (<c>--max-message-size</c>): a gRPC message, the lean SOAP client's
    /// reply body, the WCF binding's MaxReceivedMessageSize; when null each client's default: 4 MiB, the WCF binding's 64 KiB.</param>
    /// <param name="loggerFactory">Where the lean clients log their connections' events (<c>--log-level</c>); nowhere when null.</param>
    public static IHarnessClient For(
        ServiceTarget target, string soapClient, string grpcClient = GrpcClients.Lean, TimeSpan? timeout = null, int? maxMessageSize = null,
        ILoggerFactory? loggerFactory = null) =>
        target.Stack != Stacks.Soap
            ? (grpcClient == GrpcClients.GrpcNet
                ? new GrpcNetHarnessClient(target.ServiceAddress, timeout, maxMessageSize ?? MessageSizes.Default)
                : new Http2GrpcClient(target.ServiceAddress, timeout: timeout, maxReceiveMessageSize: maxMessageSize ?? MessageSizes.Default, loggerFactory: loggerFactory))
        : soapClient == SoapClients.Wcf ? new HarnessSoapClient(target.ServiceAddress, timeout ?? CallTimeouts.Default, maxMessageSize)
        : new LeanSoapClient(target.ServiceAddress, timeout, maxMessageSize ?? MessageSizes.Default, loggerFactory);

    /// <summary>The series' parameters with the client that sent them (run.json, the report).</summary>
    public static IReadOnlyDictionary<string, string> Named(
        IReadOnlyDictionary<string, string> parameters, ServiceTarget target, string soapClient, string grpcClient = GrpcClients.Lean) =>
        new Dictionary<string, string>(parameters) { ["client"] = target.Stack == Stacks.Soap ? soapClient : grpcClient };
}
