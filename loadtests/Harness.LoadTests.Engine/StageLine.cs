namespace Harness.LoadTests.Engine;

/// <summary>
/// The one rule for a stage's shape, shared by <see cref="LoadPlan"/> and <see cref="LoadSimulations"/>: every stage is a
/// straight line from the value it starts on to the value it ends on.
/// </summary>
internal static class StageLine
{
    /// <summary>
    /// Copies (closed model) or arrivals per second (open model) at the stage's start and just before its end, given
    /// the value the previous stage ended on (0 at the start). Ramps start from that value; constant stages hold
    /// theirs; a pause runs nothing and a burst's copies are its own, so both are 0 and a later ramp starts from 0.
    /// </summary>
    public static (double From, double To) Of(LoadSimulation stage, double previous) => stage switch
    {
        LoadSimulation.RampingConstant ramp => (previous, ramp.Copies),
        LoadSimulation.KeepConstant keep => (keep.Copies, keep.Copies),
        LoadSimulation.RampingInject ramp => (previous, PerSecond(ramp.Rate, ramp.Interval)),
        LoadSimulation.Inject inject => (PerSecond(inject.Rate, inject.Interval), PerSecond(inject.Rate, inject.Interval)),
        _ => (0.0, 0.0),
    };

    public static double PerSecond(int rate, TimeSpan interval) => rate / interval.TotalSeconds;
}
