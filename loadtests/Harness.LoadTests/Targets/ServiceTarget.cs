using Harness.LoadTests.Diagnostics;

namespace Harness.LoadTests.Targets;

/// <summary>A running service the runner sends load to.</summary>
/// <param name="Stack"><c>soap</c> or <c>grpc</c>; <see cref="Stacks.Scenario"/> for <see cref="None"/>.</param>
/// <param name="Mode">The scheduling mode it runs, or the user's label for an external target.</param>
/// <param name="Address">Where requests go (h2c for gRPC); null for <see cref="None"/>.</param>
/// <param name="MetricsAddress">Where /metrics is read over HTTP/1.1 (the admin port for gRPC); null for <see cref="None"/>.</param>
internal sealed record ServiceTarget(string Stack, string Mode, Uri? Address, Uri? MetricsAddress)
{
    /// <summary>
    /// No service: the series of a scenario of the user's own (<c>HarnessApp</c>) run without <c>--target</c>, whose
    /// step knows where it sends. Nothing is scraped and nothing waits for it to be quiet.
    /// </summary>
    public static ServiceTarget None(string mode) => new(Stacks.Scenario, mode, null, null);

    /// <summary>Where requests go, for the paths that only run against a service (the harness's own operations, <c>--call</c>).</summary>
    public Uri ServiceAddress => Address ?? throw new InvalidOperationException($"the {Mode} series has no service to call");

    /// <summary>
    /// True when <see cref="MetricsAddress"/> is the harness's own convention (an external target without
    /// <c>metrics=</c>), which another service need not follow.
    /// </summary>
    public bool MetricsGuessed { get; init; }

    /// <summary>
    /// Where its .NET runtime takes an EventPipe session (<c>pid=</c>, <c>diag=</c>; the runner's own services by
    /// default), for the ThreadPool's figures second by second; null: none is attached to.
    /// </summary>
    public RuntimeEndpoint? Runtime { get; init; }
}

internal static class Stacks
{
    public const string Soap = "soap";
    public const string Grpc = "grpc";

    /// <summary>The stack of a scenario of the user's own run without targets: the scenario itself is all there is.</summary>
    public const string Scenario = "scenario";

    public static IReadOnlyList<string> All { get; } = [Soap, Grpc];
}
