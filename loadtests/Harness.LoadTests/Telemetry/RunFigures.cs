using System.Diagnostics.Metrics;
using Harness.LoadTests.Running;
using Harness.Metrics;

namespace Harness.LoadTests.Telemetry;

/// <summary>
/// The run's figures while it runs, for <c>--metrics-port</c> and OTLP alike: every series so far (<see cref="SeriesFigures"/>),
/// the phase the run is in, and what names the run. Fed by the series loop (<see cref="IRunFollower"/>) and by each
/// second of the progress line (<see cref="SecondPassed"/>); read by the exporters whenever they ask.
/// </summary>
/// <param name="latency">OTLP's latency histogram, handed to each series; null when OTLP is off.</param>
internal sealed class RunFigures(RunIdentity identity, Histogram<double>? latency = null) : IRunFollower
{
    private readonly Lock _lock = new();
    private readonly List<SeriesFigures> _series = [];
    private volatile string _phase = MetricNames.PhaseIdle;

    public RunIdentity Identity { get; } = identity;

    /// <summary>
    /// One of <see cref="MetricNames.LoadPhases"/>: set as a series starts, then as of each second it reports (a
    /// warm-up burst's drain shows until the measured load's first second), idle between series.
    /// </summary>
    public string Phase => _phase;

    /// <summary>Every series started so far, in order; a series id that runs again (it cannot in one run) would count on.</summary>
    public IReadOnlyList<SeriesFigures> Series()
    {
        lock (_lock)
        {
            return [.. _series];
        }
    }

    /// <summary>The series whose load runs now (one at a time), with their last second.</summary>
    public IReadOnlyList<(SeriesFigures Series, ProgressSecond Last)> Running() =>
        [.. Series().Select(s => (Series: s, Last: s.Last)).Where(s => s.Last is not null).Select(s => (s.Series, s.Last!))];

    public ISeriesFollower StartSeries(SeriesLabels series, bool warmsUp)
    {
        // Set now rather than at the first second: a warm-up shorter than a second reports none of its own.
        _phase = warmsUp ? MetricNames.PhaseWarmUp : MetricNames.PhaseMeasured;
        lock (_lock)
        {
            var figures = _series.Find(s => s.Labels.Id == series.Id);
            if (figures is null)
            {
                figures = new SeriesFigures(series, latency);
                _series.Add(figures);
            }

            return figures;
        }
    }

    public void EndSeries(string seriesId)
    {
        if (Find(seriesId) is { } figures)
        {
            figures.Last = null;
        }

        _phase = MetricNames.PhaseIdle;
    }

    /// <summary>A second of the current series (<see cref="ProgressPrinter.SecondPassed"/>): its users, rate, latency and the phase.</summary>
    public void SecondPassed(ProgressSecond second)
    {
        if (Find(second.SeriesId) is { } figures)
        {
            figures.Last = second;
        }

        _phase = second.WarmUp ? MetricNames.PhaseWarmUp : second.Draining ? MetricNames.PhaseDraining : MetricNames.PhaseMeasured;
    }

    private SeriesFigures? Find(string seriesId)
    {
        lock (_lock)
        {
            return _series.FindLast(s => s.Labels.Id == seriesId);
        }
    }
}

/// <summary>What names the run on every exporter: its id, its profile, its load model, and which agent this is (empty when none).</summary>
internal sealed record RunIdentity(string RunId, string Profile, bool IsOpenModel, string Agent)
{
    public string Model => IsOpenModel ? "open" : "closed";

    public IReadOnlyList<(string Name, string Value)> LabelPairs =>
    [
        (MetricNames.RunLabel, RunId), (MetricNames.ProfileLabel, Profile), (MetricNames.ModelLabel, Model), (MetricNames.AgentLabel, Agent),
    ];
}
