namespace Harness.LoadTests.Engine;

/// <summary>Pure functions over a scenario's stages.</summary>
public static class LoadSimulations
{
    /// <summary>
    /// The first <paramref name="length"/> of the profile <paramref name="stages"/> describe, as stages: the stages
    /// that end by then, and the one that crosses the boundary cut there. A ramp cut part-way ramps to the value it had
    /// reached at the cut (rounded to a whole number of copies, or of arrivals per its interval). An
    /// <see cref="LoadSimulation.IterationsForConstant"/> stage is never cut: a burst's prefix is the whole burst.
    /// Times are the plan's, so a burst counts as its whole <c>During</c>.
    /// </summary>
    /// <remarks>The runner uses it to warm a series up at the series' own load shape.</remarks>
    /// <returns>No stages for a zero length; all of them when <paramref name="length"/> is the profile's or longer.</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="length"/> is negative.</exception>
    /// <exception cref="ArgumentException">A stage is null or of a type the engine does not know.</exception>
    public static IReadOnlyList<LoadSimulation> Prefix(IReadOnlyList<LoadSimulation> stages, TimeSpan length)
    {
        ArgumentNullException.ThrowIfNull(stages);
        if (length < TimeSpan.Zero)
        {
            throw new ArgumentOutOfRangeException(nameof(length), length, "A prefix's length must be zero or more.");
        }

        var prefix = new List<LoadSimulation>();
        var start = TimeSpan.Zero;
        var previous = 0.0;
        for (var i = 0; i < stages.Count && start < length; i++)
        {
            var stage = stages[i] ?? throw new ArgumentException($"Stage {i + 1} is null.", nameof(stages));
            var left = length - start;
            prefix.Add(stage.During <= left || stage is LoadSimulation.IterationsForConstant ? stage : Cut(stage, left, previous));
            previous = StageLine.Of(stage, previous).To;
            start += stage.During;
        }

        return prefix;
    }

    /// <summary>The first <paramref name="length"/> of <paramref name="stage"/>, which started on <paramref name="previous"/>.</summary>
    private static LoadSimulation Cut(LoadSimulation stage, TimeSpan length, double previous)
    {
        var (from, to) = StageLine.Of(stage, previous);
        var reached = from + ((to - from) * (length / stage.During));
        return stage switch
        {
            LoadSimulation.RampingConstant ramp => ramp with { Copies = Whole(reached), During = length },
            LoadSimulation.KeepConstant keep => keep with { During = length },
            LoadSimulation.RampingInject ramp => ramp with { Rate = Whole(reached * ramp.Interval.TotalSeconds), During = length },
            LoadSimulation.Inject inject => inject with { During = length },
            LoadSimulation.Pause pause => pause with { During = length },
            _ => throw new ArgumentException(
                $"Stage {stage.GetType().Name} is of an unknown type; use RampingConstant, KeepConstant, IterationsForConstant, Inject, RampingInject or Pause.",
                "stages"),
        };
    }

    private static int Whole(double value) => (int)Math.Round(value, MidpointRounding.AwayFromZero);
}
