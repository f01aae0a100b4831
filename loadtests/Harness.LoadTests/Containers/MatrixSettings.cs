namespace Harness.LoadTests.Containers;

/// <summary>What <c>harness matrix</c> runs its containers with.</summary>
/// <param name="DockerHost">The engine's endpoint, e.g. <c>unix:///var/run/docker.sock</c>.</param>
/// <param name="ImageTag">Tag of the harness/stub, harness/soap and harness/grpc images.</param>
/// <param name="Cpus">CPU limit of every service container (the stub's too).</param>
/// <param name="MemoryBytes">Memory limit of every service container.</param>
/// <param name="Fault">The fault to inject in each series, or null.</param>
internal sealed record MatrixSettings(
    Uri DockerHost,
    IReadOnlyList<string> Stacks,
    string ImageTag,
    double Cpus,
    long MemoryBytes,
    FaultPlan? Fault);

/// <summary>The engine cannot be reached, or an image is missing; the message says which and what to do.</summary>
internal sealed class DockerUnavailableException(string message, Exception? inner = null) : Exception(message, inner);
