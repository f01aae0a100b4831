using Harness.LoadTests.Engine;

namespace Harness.LoadTests.Running;

/// <summary>
/// One series' load: a warm-up at the series' own shape (the profile's first seconds, <see cref="LoadSimulations.Prefix"/>),
/// then the whole profile, measured. The warm-up is recorded like the rest, and the series' <c>WarmUpSeconds</c> leave
/// it out of every statistic.
/// </summary>
/// <param name="WarmUp">The warm-up's stages; none when there is no warm-up.</param>
/// <param name="Profile">The profile's stages, what is measured.</param>
internal sealed record SeriesLoad(IReadOnlyList<LoadSimulation> WarmUp, IReadOnlyList<LoadSimulation> Profile)
{
    /// <summary>
    /// True when the warm-up holds a burst (<see cref="LoadSimulation.IterationsForConstant"/>, never cut: a burst's
    /// warm-up is one whole burst). A burst ends when its calls are done, so only the load can tell where the warm-up
    /// ends: it runs as a scenario of its own, and the measured one starts on the next whole second of the series.
    /// Otherwise warm-up and profile run as one scenario, without a gap, and the warm-up ends at <see cref="WarmUpLength"/>.
    /// </summary>
    public bool WarmUpRunsApart => WarmUp.Any(s => s is LoadSimulation.IterationsForConstant);

    /// <summary>The warm-up's length on the plan; for a warm-up that runs apart, its upper bound.</summary>
    public TimeSpan WarmUpLength => Length(WarmUp);

    /// <summary>The series' <c>WarmUpSeconds</c> as known before the load: 0 for a warm-up that runs apart, recorded once it has ended.</summary>
    public double KnownWarmUpSeconds => WarmUpRunsApart ? 0 : WarmUpLength.TotalSeconds;

    /// <summary>The stages of the one scenario a warm-up that does not run apart shares with the profile.</summary>
    public IReadOnlyList<LoadSimulation> Combined => [.. WarmUp, .. Profile];

    /// <summary>The series' planned length, warm-up included (an upper bound when bursts end early).</summary>
    public TimeSpan Duration => WarmUpLength + Length(Profile);

    /// <param name="profile">The profile's stages.</param>
    /// <param name="warmUp">The warm-up asked for; rounded up to a whole second, so that no second of the series holds both warm-up and measured requests. Zero: none.</param>
    public static SeriesLoad Create(IReadOnlyList<LoadSimulation> profile, TimeSpan warmUp)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(warmUp, TimeSpan.Zero);

        // Less a tick's worth, so a scaled 10 s × 0.1 that lands a hair above 1 s is not rounded up to 2.
        var seconds = Math.Ceiling(warmUp.TotalSeconds - 1e-6);
        return new(LoadSimulations.Prefix(profile, TimeSpan.FromSeconds(Math.Max(0, seconds))), profile);
    }

    private static TimeSpan Length(IReadOnlyList<LoadSimulation> stages) => stages.Aggregate(TimeSpan.Zero, (total, s) => total + s.During);
}
