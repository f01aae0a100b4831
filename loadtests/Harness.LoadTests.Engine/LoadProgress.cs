namespace Harness.LoadTests.Engine;

/// <summary>Once per second of a scenario (and once at its end).</summary>
/// <param name="Second">1, 2, 3…: reported when that many whole seconds have elapsed, each value once. The report at the
/// end takes the next number, with <paramref name="Elapsed"/> showing how much of that second the run lasted.</param>
/// <param name="Duration">The scenario's length as known at this report: the sum of its stages' <c>During</c>, less the
/// time <see cref="LoadSimulation.IterationsForConstant"/> stages saved by ending before theirs.</param>
/// <param name="Users">Closed model: copies running now (a burst's copies until each has done its iterations). Open
/// model: the arrival rate per second now. 0 once load has stopped (the end, the failure limit or cancellation) and
/// requests are only draining.</param>
/// <param name="RequestsInFlight">Requests sent and not yet complete.</param>
public sealed record LoadProgress(
    string Scenario,
    int Second,
    TimeSpan Elapsed,
    TimeSpan Duration,
    int Users,
    long RequestsInFlight,
    long Requests,
    long Failures);
