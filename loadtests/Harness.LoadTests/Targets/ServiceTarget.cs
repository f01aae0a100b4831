namespace Harness.LoadTests.Targets;

/// <summary>A running service the runner sends load to.</summary>
/// <param name="Stack"><c>soap</c> or <c>grpc</c>.</param>
/// <param name="Mode">The scheduling mode it runs, or the user's label for an external target.</param>
/// <param name="Address">Where requests go (h2c for gRPC).</param>
/// <param name="MetricsAddress">Where /metrics is read over HTTP/1.1 (the admin port for gRPC).</param>
internal sealed record ServiceTarget(string Stack, string Mode, Uri Address, Uri MetricsAddress)
{
    /// <summary>
    /// True when <see cref="MetricsAddress"/> is the harness's own convention (an external target without
    /// <c>metrics=</c>), which another service need not follow.
    /// </summary>
    public bool MetricsGuessed { get; init; }
}

internal static class Stacks
{
    public const string Soap = "soap";
    public const string Grpc = "grpc";

    public static IReadOnlyList<string> All { get; } = [Soap, Grpc];
}
