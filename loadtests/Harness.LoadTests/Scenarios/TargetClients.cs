using Harness.Contracts;
using Harness.LoadTests.Clients;
using Harness.LoadTests.Clients.Grpc;
using Harness.LoadTests.Clients.Soap;
using Harness.LoadTests.Targets;
using Microsoft.Extensions.Logging;

namespace Harness.LoadTests.Scenarios;

/// <summary>The client of a target's stack for the harness's own operations (<see cref="HarnessClients"/>), and the name the series records.</summary>
internal static class TargetClients
{
    /// <param name="timeout">Each call's timeout (<c>--timeout</c>), as <see cref="HarnessClients"/> takes it.</param>
    /// <param name="maxMessageSize">The largest reply taken (<c>--max-message-size</c>); each client's default when null.</param>
    /// <param name="loggerFactory">Where the lean clients log their connections' events (<c>--log-level</c>); nowhere when null.</param>
    /// <param name="tls">How an https:// target is trusted (<c>--cacert</c>, <c>--cert</c>, <c>--key</c>, <c>--insecure</c>); the system's trust when null.</param>
    public static IHarnessClient For(
        ServiceTarget target, string soapClient, string grpcClient = GrpcClients.Lean, TimeSpan? timeout = null, int? maxMessageSize = null,
        ILoggerFactory? loggerFactory = null, ClientTls? tls = null) =>
        target.Stack == Stacks.Soap
            ? HarnessClients.Soap(target.ServiceAddress, soapClient, timeout, maxMessageSize, loggerFactory, tls)
            : HarnessClients.Grpc(target.ServiceAddress, grpcClient, timeout, maxMessageSize, loggerFactory, tls);

    /// <summary>
    /// The series' parameters with the client that sent them (run.json, the report). The lean SOAP client posts an
    /// https:// target's envelopes through HttpClient, not its own HTTP/1.1 connections, so its cost is HttpClient's:
    /// the name says so, and a comparison with a plain-text run of the lean client is not of the same client.
    /// </summary>
    public static IReadOnlyDictionary<string, string> Named(
        IReadOnlyDictionary<string, string> parameters, ServiceTarget target, string soapClient, string grpcClient = GrpcClients.Lean) =>
        new Dictionary<string, string>(parameters)
        {
            ["client"] = target.Stack != Stacks.Soap ? grpcClient
                : soapClient == SoapClients.Lean && target.ServiceAddress.Scheme == Uri.UriSchemeHttps ? LeanSoapOverTls
                : soapClient,
        };

    /// <summary>The client name of the lean SOAP client on an https:// target.</summary>
    public const string LeanSoapOverTls = "lean (https: HttpClient)";
}
