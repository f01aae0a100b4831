namespace Harness.LoadTests.Engine;

/// <summary>
/// A scenario's stages laid out on its timeline: the target copy count (closed model) or arrival rate (open model)
/// at any time of the plan, and when each open-model arrival is due. It is a pure function of the stages; the drivers
/// (<see cref="CopyController"/>, <see cref="ArrivalScheduler"/>) follow it on the clock.
/// </summary>
/// <remarks>
/// Every stage is a straight line from the value the previous stage ended on (0 at the start and after a pause or a
/// burst) to its own value; constant stages start and end on their value. Open-model rates are kept per second, so
/// that stages with different intervals join up. Times are the plan's own: an <see cref="LoadSimulation.IterationsForConstant"/>
/// stage lasts its whole <c>During</c> here, and the closed-model driver moves the rest of the plan earlier when a
/// burst ends sooner.
/// </remarks>
internal sealed class LoadPlan
{
    // Arrival counts within this of a whole number are that number, so 20/s for 2 s schedules 40 arrivals, not 41.
    private const double WholeArrivalTolerance = 1e-9;

    private readonly Segment[] _segments;

    private LoadPlan(Segment[] segments, bool isOpenModel)
    {
        _segments = segments;
        IsOpenModel = isOpenModel;
        Duration = segments[^1].End;
        MaxCopies = isOpenModel ? 0 : (int)segments.Max(s => Math.Max(s.From, s.To));
        var arrivals = segments[^1].ArrivalsBefore + segments[^1].Arrivals;
        TotalArrivals = isOpenModel ? (long)Math.Ceiling(arrivals) : 0;
    }

    public bool IsOpenModel { get; }

    /// <summary>The sum of the stages' <c>During</c>: with bursts, an upper bound of the run's length.</summary>
    public TimeSpan Duration { get; }

    /// <summary>Closed model: the most copies a ramping or constant stage asks for (bursts start copies of their own).</summary>
    public int MaxCopies { get; }

    /// <summary>Open model: how many arrivals the whole schedule holds.</summary>
    public long TotalArrivals { get; }

    /// <summary>Validates <paramref name="simulations"/> and lays them out.</summary>
    /// <exception cref="ArgumentException">A stage breaks a limit, or closed and open stages are mixed.</exception>
    public static LoadPlan Create(string scenario, IReadOnlyList<LoadSimulation> simulations)
    {
        ArgumentNullException.ThrowIfNull(simulations);
        if (simulations.Count == 0)
        {
            throw new ArgumentException($"Scenario '{scenario}' has no load simulations; give it at least one stage.", nameof(simulations));
        }

        LoadSimulation? firstClosed = null;
        LoadSimulation? firstOpen = null;
        var closedIndex = 0;
        var openIndex = 0;
        for (var i = 0; i < simulations.Count; i++)
        {
            var stage = simulations[i] ?? throw new ArgumentException($"Scenario '{scenario}': stage {i + 1} is null.", nameof(simulations));
            Validate(scenario, i, stage);
            if (stage is LoadSimulation.RampingConstant or LoadSimulation.KeepConstant or LoadSimulation.IterationsForConstant
                && firstClosed is null)
            {
                firstClosed = stage;
                closedIndex = i;
            }
            else if (stage.IsOpenModel && firstOpen is null)
            {
                firstOpen = stage;
                openIndex = i;
            }
        }

        if (firstClosed is not null && firstOpen is not null)
        {
            throw new ArgumentException(
                $"Scenario '{scenario}' mixes a closed-model stage (stage {closedIndex + 1}, {Describe(firstClosed)}) with an open-model stage " +
                $"(stage {openIndex + 1}, {Describe(firstOpen)}); use only RampingConstant/KeepConstant/IterationsForConstant or only Inject/RampingInject, plus Pause.",
                nameof(simulations));
        }

        var segments = new Segment[simulations.Count];
        var start = TimeSpan.Zero;
        var previous = 0.0;
        var arrivalsBefore = 0.0;
        for (var i = 0; i < simulations.Count; i++)
        {
            var stage = simulations[i];
            var (from, to) = StageLine.Of(stage, previous);
            var end = start + stage.During;
            var arrivals = stage.IsOpenModel ? (from + to) / 2 * stage.During.TotalSeconds : 0;
            var arrivalsAfter = SnapToWhole(arrivalsBefore + arrivals);
            segments[i] = new Segment(stage, start, end, from, to, arrivalsBefore, arrivalsAfter - arrivalsBefore);
            start = end;
            previous = to;
            arrivalsBefore = arrivalsAfter;
        }

        return new LoadPlan(segments, firstOpen is not null);
    }

    /// <summary>Closed model: how many copies should be running at <paramref name="elapsed"/>; 0 before and after the plan.</summary>
    public int TargetCopies(TimeSpan elapsed) =>
        IsOpenModel ? 0 : (int)Math.Round(ValueAt(elapsed), MidpointRounding.AwayFromZero);

    /// <summary>Closed model: the burst stage that <paramref name="at"/> falls in, if it falls in one.</summary>
    public Burst? BurstAt(TimeSpan at)
    {
        foreach (var segment in _segments)
        {
            if (at < segment.End)
            {
                return at >= segment.Start && segment.Simulation is LoadSimulation.IterationsForConstant burst
                    ? new Burst(burst.Copies, burst.Iterations, segment.Start, segment.End)
                    : null;
            }
        }

        return null;
    }

    /// <summary>When the stage that <paramref name="at"/> falls in ends; <see cref="Duration"/> from the end on.</summary>
    public TimeSpan StageEnd(TimeSpan at)
    {
        foreach (var segment in _segments)
        {
            if (at < segment.End)
            {
                return segment.End;
            }
        }

        return Duration;
    }

    /// <summary>Open model: the arrival rate per second at <paramref name="elapsed"/>; 0 before and after the plan.</summary>
    public double TargetRatePerSecond(TimeSpan elapsed) => IsOpenModel ? ValueAt(elapsed) : 0;

    /// <summary>Open model: arrivals the schedule holds from the start up to <paramref name="elapsed"/>, as a real number.</summary>
    public double ArrivalsBy(TimeSpan elapsed)
    {
        if (!IsOpenModel || elapsed <= TimeSpan.Zero)
        {
            return 0;
        }

        foreach (var segment in _segments)
        {
            if (elapsed < segment.End)
            {
                var seconds = (elapsed - segment.Start).TotalSeconds;
                return segment.ArrivalsBefore + (segment.From * seconds) + (segment.Slope * seconds * seconds / 2);
            }
        }

        return _segments[^1].ArrivalsBefore + _segments[^1].Arrivals;
    }

    /// <summary>
    /// Open model: when arrival <paramref name="index"/> (0-based) is due: the first moment the running total of
    /// arrivals reaches <paramref name="index"/>. Arrivals are therefore evenly spaced at a constant rate, the first
    /// one at the stage's start; every one falls inside its stage, never at its end.
    /// </summary>
    public TimeSpan ArrivalTime(long index)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(index);
        ArgumentOutOfRangeException.ThrowIfGreaterThanOrEqual(index, TotalArrivals);
        foreach (var segment in _segments)
        {
            if (index >= segment.ArrivalsBefore + segment.Arrivals)
            {
                continue;
            }

            var x = index - segment.ArrivalsBefore;
            if (x <= 0)
            {
                return segment.Start;
            }

            // Solve from·t + slope·t²/2 = x for t. This form stays exact when the slope is 0 and when the rate ramps down.
            var discriminant = Math.Max(0, (segment.From * segment.From) + (2 * segment.Slope * x));
            var seconds = 2 * x / (segment.From + Math.Sqrt(discriminant));
            var offset = TimeSpan.FromTicks((long)Math.Round(seconds * TimeSpan.TicksPerSecond));
            var length = segment.End - segment.Start;
            return segment.Start + (offset < length ? offset : length - TimeSpan.FromTicks(1));
        }

        throw new InvalidOperationException($"Arrival {index} is outside a schedule of {TotalArrivals} arrivals.");
    }

    private double ValueAt(TimeSpan elapsed)
    {
        if (elapsed < TimeSpan.Zero)
        {
            return 0;
        }

        foreach (var segment in _segments)
        {
            if (elapsed < segment.End)
            {
                return segment.From + (segment.Slope * (elapsed - segment.Start).TotalSeconds);
            }
        }

        return 0;
    }

    private static void Validate(string scenario, int index, LoadSimulation stage)
    {
        string Where() => $"Scenario '{scenario}', stage {index + 1} ({Describe(stage)})";

        if (stage.During <= TimeSpan.Zero)
        {
            throw new ArgumentException($"{Where()}: During must be greater than zero, was {stage.During}.", "simulations");
        }

        int copies = 0, rate = 0;
        TimeSpan? interval = null;
        switch (stage)
        {
            case LoadSimulation.IterationsForConstant s:
                if (s.Copies < 1 || s.Iterations < 1)
                {
                    var (name, value) = s.Copies < 1 ? ("Copies", s.Copies) : ("Iterations", s.Iterations);
                    throw new ArgumentException($"{Where()}: {name} must be at least 1, was {value}.", "simulations");
                }

                break;
            case LoadSimulation.RampingConstant s:
                copies = s.Copies;
                break;
            case LoadSimulation.KeepConstant s:
                copies = s.Copies;
                break;
            case LoadSimulation.Inject s:
                (rate, interval) = (s.Rate, s.Interval);
                break;
            case LoadSimulation.RampingInject s:
                (rate, interval) = (s.Rate, s.Interval);
                break;
            case LoadSimulation.Pause:
                break;
            default:
                throw new ArgumentException($"{Where()}: unknown stage type; use RampingConstant, KeepConstant, IterationsForConstant, Inject, RampingInject or Pause.", "simulations");
        }

        if (copies < 0)
        {
            throw new ArgumentException($"{Where()}: Copies must be zero or more, was {copies}.", "simulations");
        }

        if (rate < 0)
        {
            throw new ArgumentException($"{Where()}: Rate must be zero or more, was {rate}.", "simulations");
        }

        if (interval is { } i && i <= TimeSpan.Zero)
        {
            throw new ArgumentException($"{Where()}: Interval must be greater than zero, was {i}.", "simulations");
        }
    }

    private static string Describe(LoadSimulation stage) => stage.GetType().Name;

    private static double SnapToWhole(double value)
    {
        var whole = Math.Round(value);
        return Math.Abs(value - whole) <= WholeArrivalTolerance * Math.Max(1, whole) ? whole : value;
    }

    /// <summary>A burst stage on the plan's timeline.</summary>
    public readonly record struct Burst(int Copies, int Iterations, TimeSpan Start, TimeSpan End);

    /// <param name="From">Copies or arrivals per second at <paramref name="Start"/>.</param>
    /// <param name="To">Copies or arrivals per second just before <paramref name="End"/>.</param>
    /// <param name="ArrivalsBefore">Open model: arrivals scheduled by earlier stages.</param>
    /// <param name="Arrivals">Open model: arrivals this stage schedules, as a real number.</param>
    private readonly record struct Segment(
        LoadSimulation Simulation,
        TimeSpan Start,
        TimeSpan End,
        double From,
        double To,
        double ArrivalsBefore,
        double Arrivals)
    {
        /// <summary>Change of the value per second.</summary>
        public double Slope => (To - From) / (End - Start).TotalSeconds;
    }
}
