using Harness.Contracts;
using Harness.LoadTests.Calls.Grpc;
using Harness.LoadTests.Calls.Soap;
using Harness.LoadTests.Targets;

namespace Harness.LoadTests.Scenarios;

/// <summary>The client of a target's stack for the harness's own operations: the lean ones, or SOAP's WCF client when asked (<c>--soap-client wcf</c>).</summary>
internal static class HarnessClients
{
    public static IHarnessClient For(ServiceTarget target, string soapClient) =>
        target.Stack != Stacks.Soap ? new LeanGrpcClient(target.ServiceAddress)
        : soapClient == SoapClients.Wcf ? new HarnessSoapClient(target.ServiceAddress)
        : new LeanSoapClient(target.ServiceAddress);

    /// <summary>The series' parameters with the client that sent them, for a SOAP series (run.json, the report).</summary>
    public static IReadOnlyDictionary<string, string> Named(IReadOnlyDictionary<string, string> parameters, ServiceTarget target, string soapClient) =>
        target.Stack != Stacks.Soap ? parameters : new Dictionary<string, string>(parameters) { ["client"] = soapClient };
}
