using Harness.LoadTests.Clients;
using Harness.LoadTests.Clients.Grpc;
using Harness.LoadTests.Clients.Soap;
using Harness.LoadTests.Engine;

namespace Harness.LoadTests.Running;

internal sealed partial record RunOptions
{
    /// <summary><c>--call</c> as given, checked for form; null when the run loads the harness's own operations.</summary>
    public CallRequest? CallRequest { get; init; }

    /// <summary><see cref="CallRequest"/> resolved against the first target before any load (<see cref="CallResolver"/>).</summary>
    public CallPlan? Call { get; init; }

    /// <summary><c>--soap-client</c>: which client sends the harness's own SOAP operations (<see cref="SoapClients"/>).</summary>
    public string SoapClient { get; init; } = SoapClients.Lean;

    /// <summary><c>--grpc-client</c>: which client sends the harness's own gRPC operations (<see cref="GrpcClients"/>).</summary>
    public string GrpcClient { get; init; } = GrpcClients.Lean;

    /// <summary><c>--log-level</c>: where the lean clients log their connections' events; nowhere unless asked.</summary>
    public ClientLog ClientLog { get; init; } = ClientLog.None;

    /// <summary>The scenarios of the user's own app (<c>HarnessApp.RunAsync</c>), which are the run's operations; empty for <c>harness</c> itself.</summary>
    public IReadOnlyList<Scenario> UserScenarios { get; init; } = [];
}
