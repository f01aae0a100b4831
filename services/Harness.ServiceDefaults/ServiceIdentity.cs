using Harness.Scheduling;

namespace Harness.ServiceDefaults;

/// <summary>Which service this is and the scheduling mode it runs, for logs and /metrics labels.</summary>
/// <param name="Service">Short service name: <c>soap</c>, <c>grpc</c> or <c>stub</c>.</param>
/// <param name="Mode">The scheduling mode, or null for a service that has none (the stub).</param>
public sealed record ServiceIdentity(string Service, SchedulingMode? Mode)
{
    public string ModeName => Mode is { } mode ? SchedulingOptions.ToName(mode) : "none";
}
