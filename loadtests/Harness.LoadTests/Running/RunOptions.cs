using Harness.LoadTests.Profiles;
using Harness.LoadTests.Reporting;
using Harness.LoadTests.Scenarios;
using Harness.LoadTests.Targets;

namespace Harness.LoadTests.Running;

/// <summary>Everything <c>harness run</c> was asked to do, validated.</summary>
/// <param name="Targets">External targets; empty means start the services locally.</param>
/// <param name="Thresholds">The <c>--assert</c> thresholds, checked once the run is over.</param>
internal sealed record RunOptions(
    LoadProfile Profile,
    double TimeScale,
    IReadOnlyList<string> Stacks,
    IReadOnlyList<string> Operations,
    IReadOnlyList<string> Modes,
    IReadOnlyList<ServiceTarget> Targets,
    OperationSettings Settings,
    long MaxFailures,
    IReadOnlyList<Threshold> Thresholds,
    string OutputDirectory,
    string CommandLine);
