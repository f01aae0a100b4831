using System.Globalization;
using System.Text.RegularExpressions;
using Harness.LoadTests.Reporting.Text;

namespace Harness.LoadTests.Reporting.Analysis;

/// <summary>What a threshold measures.</summary>
// Public, as the package's only types: the tests' theories take it as a parameter, and xUnit runs public methods.
public enum ThresholdMetric
{
    Mean,
    Percentile,
    Max,
    RequestsPerSecond,
    ErrorCount,
    ErrorRate,
    Threads,
    QueueLength,
    ContextSwitchesPerRequest,

    /// <summary><c>knee</c>: the load (users, or arrival rate) at which a ramping series leaves its ideal; beyond its peak when it never did.</summary>
    Knee,

    /// <summary><c>soak.p99.drift</c>: % change of p99 from the first soak window to the last.</summary>
    SoakP99Drift,

    /// <summary><c>soak.rps.drift</c>: % change of successful req/s from the first soak window to the last.</summary>
    SoakRpsDrift,

    /// <summary><c>soak.memory.growth</c> in %/h: the working set's fitted slope ÷ the first window's level.</summary>
    SoakMemoryGrowth,

    /// <summary><c>soak.threads.growth</c> in /h: the OS threads' fitted slope, threads per hour.</summary>
    SoakThreadsGrowth,

    /// <summary><c>soak.threads.growth</c> in %/h: the OS threads' fitted slope ÷ the first window's level.</summary>
    SoakThreadsGrowthPercent,

    /// <summary><c>soak.errors</c> in %: failures ÷ requests after the warm-up.</summary>
    SoakErrorRate,

    /// <summary><c>cpu</c> in ms: the target's CPU time per request (<see cref="SeriesSummary.CpuMsPerRequest"/>).</summary>
    CpuPerRequest,

    /// <summary><c>memory</c> in KB: the target's memory per call in flight (<see cref="SeriesSummary.MemoryKbPerCallInFlight"/>).</summary>
    MemoryPerCall,

    /// <summary><c>starvation-threads</c>: threads the target's .NET runtime injected for starvation (<see cref="RuntimeThreadPool.StarvationThreads"/>).</summary>
    StarvationThreads,
}

// Public, as the package's only types: the tests' theories take it as a parameter, and xUnit runs public methods.
public enum ThresholdOperator
{
    LessThan,
    LessThanOrEqual,
    GreaterThan,
    GreaterThanOrEqual,

    /// <summary><c>=</c>: counts only (<c>errors=0</c>, <c>starvation-threads=0</c>).</summary>
    Equal,
}

/// <summary>
/// A pass/fail condition on a run's series: <c>[scope:]metric operator value[unit]</c>, e.g. <c>p99&lt;4500ms</c>,
/// <c>errors&lt;1%</c>, <c>grpc-compute-iocp:mean&lt;=5s</c>, <c>mode=iocp,stack=grpc:rps&gt;=20</c>.
/// See <see cref="Syntax"/> and docs/report.md.
/// </summary>
/// <param name="Expression">The text as given.</param>
/// <param name="SeriesId">Scope by series id, or null.</param>
/// <param name="Filters">Scope by series fields (<c>stack</c>, <c>operation</c>, <c>mode</c>, <c>model</c>, <c>id</c>), all of which must match; empty = every series.</param>
/// <param name="Percentile">For <see cref="ThresholdMetric.Percentile"/>: 0–100.</param>
/// <param name="Intended">True for the <c>co-</c> metrics: the latency from the intended start, open-model series only.</param>
/// <param name="Limit">In the metric's canonical unit: ms for latency, % for the error rate, a plain number otherwise.</param>
internal sealed partial record Threshold(
    string Expression,
    string? SeriesId,
    IReadOnlyDictionary<string, string> Filters,
    ThresholdMetric Metric,
    double? Percentile,
    bool Intended,
    ThresholdOperator Operator,
    double Limit)
{
    public const string Syntax =
        "Syntax: [scope:]metric operator value[unit], e.g. p99<4500ms, errors<1%, grpc-compute-iocp:mean<=5s, mode=iocp,stack=grpc:rps>=20. "
        + "Metrics: mean, p<N> (p50, p90, p99, p99.9, p99.99...), max, rps, errors, threads, queue, ctxsw, knee (the load where a ramp leaves its ideal, e.g. knee>=32), "
        + "cpu (the service's CPU ms per request), memory (the service's KB per call in flight), "
        + "starvation-threads (threads the target's .NET runtime injected for ThreadPool starvation, e.g. starvation-threads=0; docs/runtime.md); "
        + "co-mean, co-p<N>, co-max for the latency from the intended start (open-model series only). "
        + "Operators: <, <=, >, >=, and = for counts (errors, starvation-threads). "
        + "Units: ms (the default), s, us for latency; % after errors for the error rate (no unit: a count of failures); none for rps, threads, queue, ctxsw; ms for cpu; kb for memory. "
        + "Soak (docs/report.md, 'Soak'): soak.p99.drift<10%, soak.rps.drift>-5%, soak.memory.growth<2%/h, soak.threads.growth<10%/h (or threads per hour: <20/h), soak.errors<0.1%. "
        + "Scope: a series id, or key=value pairs joined by ',' with keys stack, operation, mode, model, id. "
        + "Stack ratio: stack=grpc/stack=soap:p99<1.2x judges gRPC's figure ÷ SOAP's for each operation × mode (stacks soap, grpc; value in x; "
        + "metrics mean, p<N>, max, co-..., rps, threads, queue, ctxsw, cpu, memory).";

    /// <summary>The metric as written in the syntax, e.g. <c>p99</c>, <c>co-mean</c>, <c>errors</c>.</summary>
    public string MetricName => (Intended ? "co-" : string.Empty) + Metric switch
    {
        ThresholdMetric.Mean => "mean",
        ThresholdMetric.Percentile => "p" + Format.Plain(Percentile ?? 0),
        ThresholdMetric.Max => "max",
        ThresholdMetric.RequestsPerSecond => "rps",
        ThresholdMetric.ErrorCount or ThresholdMetric.ErrorRate => "errors",
        ThresholdMetric.Threads => "threads",
        ThresholdMetric.QueueLength => "queue",
        ThresholdMetric.ContextSwitchesPerRequest => "ctxsw",
        ThresholdMetric.Knee => "knee",
        ThresholdMetric.CpuPerRequest => "cpu",
        ThresholdMetric.MemoryPerCall => "memory",
        ThresholdMetric.StarvationThreads => StarvationThreadsName,
        _ => SoakMetricName,
    };

    public string OperatorText => Operator switch
    {
        ThresholdOperator.LessThan => "<",
        ThresholdOperator.LessThanOrEqual => "<=",
        ThresholdOperator.GreaterThan => ">",
        ThresholdOperator.Equal => "=",
        _ => ">=",
    };

    public bool IsLatency => Metric is ThresholdMetric.Mean or ThresholdMetric.Percentile or ThresholdMetric.Max;

    /// <exception cref="FormatException">The text is not a threshold; the message says why and gives <see cref="Syntax"/>.</exception>
    /// <summary>True for a default the run added (a soak's, docs/report.md) rather than one given with --assert.</summary>
    public bool IsDefault { get; init; }

    public static Threshold Parse(string expression)
    {
        if (string.IsNullOrWhiteSpace(expression))
        {
            throw Error(expression ?? string.Empty, "it is empty");
        }

        var text = expression.Trim();
        var colon = text.LastIndexOf(':');
        var scope = colon < 0 ? null : text[..colon].Trim();
        var body = colon < 0 ? text : text[(colon + 1)..].Trim();
        var (ownScope, against) = SplitAgainst(expression, scope);
        var (seriesId, filters) = ParseScope(expression, ownScope);
        if (against is not null)
        {
            CheckStackScope(expression, seriesId, filters, against);
        }

        var match = BodyPattern().Match(body);
        if (!match.Success)
        {
            throw Error(expression, $"'{body}' is not metric, operator, value (e.g. p99<4500ms)");
        }

        var (metric, percentile, intended) = ParseMetric(expression, match.Groups["metric"].Value.ToLowerInvariant());
        var op = match.Groups["op"].Value switch
        {
            "<" => ThresholdOperator.LessThan,
            "<=" => ThresholdOperator.LessThanOrEqual,
            ">" => ThresholdOperator.GreaterThan,
            ">=" => ThresholdOperator.GreaterThanOrEqual,
            "=" or "==" when metric is ThresholdMetric.ErrorCount or ThresholdMetric.StarvationThreads && against is null => ThresholdOperator.Equal,
            "=" or "==" => throw Error(expression, $"unknown operator '{match.Groups["op"].Value}' for '{match.Groups["metric"].Value}': '=' compares counts only ({EqualityMetrics})"),
            var other => throw Error(expression, other.Length == 0 ? "the operator is missing" : $"unknown operator '{other}'"),
        };

        var valueText = match.Groups["value"].Value;
        if (!double.TryParse(valueText, NumberStyles.AllowDecimalPoint | NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var value)
            || valueText.Length == 0 || valueText is "-" or "+")
        {
            throw Error(expression, valueText.Length == 0 ? "the value is missing" : $"'{valueText}' is not a number");
        }

        var unit = match.Groups["unit"].Value.Trim().ToLowerInvariant();
        if (against is not null)
        {
            return StackRatioThreshold(expression, filters, against, metric, percentile, intended, op, value, unit);
        }

        if (unit == "x")
        {
            throw Error(expression, "a ratio (x) compares the stacks: give the scope stack=grpc/stack=soap");
        }

        if (IsSoakMetric(metric))
        {
            (metric, var soakLimit) = SoakLimit(expression, metric, value, unit);
            return new Threshold(expression, seriesId, filters, metric, percentile, intended, op, soakLimit);
        }

        if (value < 0)
        {
            throw Error(expression, $"'{match.Groups["metric"].Value}' cannot be negative; only the soak drifts take a sign");
        }

        double limit;
        if (metric is ThresholdMetric.Mean or ThresholdMetric.Percentile or ThresholdMetric.Max)
        {
            limit = unit switch
            {
                "" or "ms" => value,
                "s" => value * 1000,
                "us" or "µs" => value / 1000,
                _ => throw Error(expression, $"unit '{unit}' is not a latency unit (ms, s, us)"),
            };
        }
        else if (metric == ThresholdMetric.ErrorCount && unit == "%")
        {
            if (op == ThresholdOperator.Equal)
            {
                throw Error(expression, "'=' compares counts, not an error rate: use errors<=N% or errors=N");
            }

            metric = ThresholdMetric.ErrorRate;
            limit = value;
        }
        else if (unit.Length > 0 && !(metric == ThresholdMetric.RequestsPerSecond && unit == "/s")
            && !(metric == ThresholdMetric.CpuPerRequest && unit == "ms") && !(metric == ThresholdMetric.MemoryPerCall && unit == "kb"))
        {
            throw Error(expression, $"'{match.Groups["metric"].Value}' takes no unit '{unit}'");
        }
        else
        {
            limit = value;
        }

        return new Threshold(expression, seriesId, filters, metric, percentile, intended, op, limit);
    }

    /// <summary>The series' figure in the canonical unit, or null when it was not measured.</summary>
    public double? Measure(SeriesSummary summary)
    {
        ArgumentNullException.ThrowIfNull(summary);
        if (IsLatency)
        {
            var stats = Intended ? summary.IntendedLatency : summary.Latency;
            if (stats is null || stats.Count == 0)
            {
                return null;
            }

            return Metric switch
            {
                ThresholdMetric.Mean => stats.MeanMs,
                ThresholdMetric.Max => stats.MaxMs,
                _ => Intended ? summary.IntendedPercentileMs(Percentile!.Value) : summary.LatencyPercentileMs(Percentile!.Value),
            };
        }

        if (IsSoak)
        {
            return MeasureSoak(summary.Soak);
        }

        return Metric switch
        {
            ThresholdMetric.RequestsPerSecond => summary.RequestsPerSecond,
            ThresholdMetric.ErrorCount => summary.Failures,
            ThresholdMetric.ErrorRate => summary.Requests == 0 ? null : summary.ErrorRate * 100,
            ThresholdMetric.Threads => summary.PeakThreads,
            ThresholdMetric.QueueLength => summary.PeakQueueLength,
            ThresholdMetric.Knee => MeasureKnee(summary.Knee),
            ThresholdMetric.CpuPerRequest => summary.CpuMsPerRequest,
            ThresholdMetric.MemoryPerCall => summary.MemoryKbPerCallInFlight,
            ThresholdMetric.StarvationThreads => summary.Runtime?.StarvationThreads,
            _ => summary.ContextSwitchesPerRequest,
        };
    }

    public bool IsMetBy(double actual) => Operator switch
    {
        ThresholdOperator.LessThan => actual < Limit,
        ThresholdOperator.LessThanOrEqual => actual <= Limit,
        ThresholdOperator.GreaterThan => actual > Limit,
        ThresholdOperator.Equal => actual == Limit,
        _ => actual >= Limit,
    };

    /// <summary>The limit in this threshold's unit, as the tables and messages show it.</summary>
    public string FormatLimit() => IsSoak ? FormatSoakLimit() : FormatValue(Limit);

    /// <summary>A figure in this threshold's unit, e.g. <c>4,213 ms</c>, <c>0.52 %</c>, <c>31</c>.</summary>
    public string FormatValue(double value) =>
        IsStackRatio ? Format.Ratio(value)
        : IsLatency ? Format.Number(value) + " ms"
        : IsSoak ? FormatSoakValue(value)
        : Metric == ThresholdMetric.ErrorRate ? Format.Number(value) + " %"
        : IsKnee ? Format.Plain(value)
        : Metric == ThresholdMetric.StarvationThreads ? Format.Integer(value)
        : Metric == ThresholdMetric.CpuPerRequest ? Format.Number(value) + " ms"
        : Metric == ThresholdMetric.MemoryPerCall ? Format.Number(value) + " KB"
        : Format.Number(value);

    public override string ToString() => Expression;

    private static (ThresholdMetric Metric, double? Percentile, bool Intended) ParseMetric(string expression, string name)
    {
        var intended = name.StartsWith("co-", StringComparison.Ordinal);
        var bare = intended ? name[3..] : name;
        switch (bare)
        {
            case "mean" or "avg":
                return (ThresholdMetric.Mean, null, intended);
            case "max":
                return (ThresholdMetric.Max, null, intended);
        }

        if (bare.Length > 1 && bare[0] == 'p'
            && double.TryParse(bare.AsSpan(1), NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture, out var percentile))
        {
            if (percentile is <= 0 or > 100)
            {
                throw Error(expression, $"percentile '{name}' is outside p0–p100");
            }

            return (ThresholdMetric.Percentile, percentile, intended);
        }

        if (!intended)
        {
            if (SoakMetricOf(bare) is { } soak)
            {
                return (soak, null, false);
            }

            switch (bare)
            {
                case "rps":
                    return (ThresholdMetric.RequestsPerSecond, null, false);
                case "errors":
                    return (ThresholdMetric.ErrorCount, null, false);
                case "threads":
                    return (ThresholdMetric.Threads, null, false);
                case "queue":
                    return (ThresholdMetric.QueueLength, null, false);
                case "ctxsw":
                    return (ThresholdMetric.ContextSwitchesPerRequest, null, false);
                case "knee":
                    return (ThresholdMetric.Knee, null, false);
                case "cpu":
                    return (ThresholdMetric.CpuPerRequest, null, false);
                case "memory":
                    return (ThresholdMetric.MemoryPerCall, null, false);
                case StarvationThreadsName:
                    return (ThresholdMetric.StarvationThreads, null, false);
            }
        }

        throw Error(expression, $"unknown metric '{name}'");
    }

    internal static FormatException Error(string expression, string reason) =>
        new($"Invalid threshold \"{expression}\": {reason}. {Syntax}");

    // Deliberately loose: each part is then checked on its own so the message can name what is wrong.
    [GeneratedRegex(@"^(?<metric>[A-Za-z][A-Za-z0-9.\-]*)\s*(?<op>[<>=!]*)\s*(?<value>[-+]?[0-9]*\.?[0-9]*)\s*(?<unit>[A-Za-zµ%/]*)$", RegexOptions.CultureInvariant)]
    private static partial Regex BodyPattern();
}
