using Harness.LoadTests.Recording;
using static Harness.LoadTests.Reporting.Tests.Runs;

namespace Harness.LoadTests.Reporting.Tests;

public sealed class ThresholdTests
{
    [Theory]
    [InlineData("p99<4500ms", ThresholdMetric.Percentile, 99.0, ThresholdOperator.LessThan, 4500)]
    [InlineData("mean<=5s", ThresholdMetric.Mean, null, ThresholdOperator.LessThanOrEqual, 5000)]
    [InlineData("p50<800", ThresholdMetric.Percentile, 50.0, ThresholdOperator.LessThan, 800)]
    [InlineData("p99.9 < 2.5 s", ThresholdMetric.Percentile, 99.9, ThresholdOperator.LessThan, 2500)]
    [InlineData("max<20s", ThresholdMetric.Max, null, ThresholdOperator.LessThan, 20000)]
    [InlineData("mean<1500us", ThresholdMetric.Mean, null, ThresholdOperator.LessThan, 1.5)]
    [InlineData("errors<1%", ThresholdMetric.ErrorRate, null, ThresholdOperator.LessThan, 1)]
    [InlineData("errors<=10", ThresholdMetric.ErrorCount, null, ThresholdOperator.LessThanOrEqual, 10)]
    [InlineData("rps>=20", ThresholdMetric.RequestsPerSecond, null, ThresholdOperator.GreaterThanOrEqual, 20)]
    [InlineData("rps>19.5/s", ThresholdMetric.RequestsPerSecond, null, ThresholdOperator.GreaterThan, 19.5)]
    [InlineData("threads<=64", ThresholdMetric.Threads, null, ThresholdOperator.LessThanOrEqual, 64)]
    [InlineData("queue<100", ThresholdMetric.QueueLength, null, ThresholdOperator.LessThan, 100)]
    [InlineData("ctxsw<5", ThresholdMetric.ContextSwitchesPerRequest, null, ThresholdOperator.LessThan, 5)]
    [InlineData("P99<4500MS", ThresholdMetric.Percentile, 99.0, ThresholdOperator.LessThan, 4500)]
    public void Valid_expressions_parse_to_the_metric_operator_and_limit_in_canonical_units(
        string text, ThresholdMetric metric, double? percentile, ThresholdOperator op, double limit)
    {
        var threshold = Threshold.Parse(text);

        Assert.Equal(metric, threshold.Metric);
        Assert.Equal(percentile, threshold.Percentile);
        Assert.Equal(op, threshold.Operator);
        Assert.Equal(limit, threshold.Limit, 9);
        Assert.Null(threshold.SeriesId);
        Assert.Empty(threshold.Filters);
        Assert.False(threshold.Intended);
    }

    [Fact]
    public void Scopes_name_a_series_or_filter_by_its_fields()
    {
        var byId = Threshold.Parse("grpc-compute-iocp:p99<4500ms");
        Assert.Equal("grpc-compute-iocp", byId.SeriesId);
        Assert.Equal(4500, byId.Limit);

        var byFields = Threshold.Parse("mode=iocp, stack=grpc : rps>=20");
        Assert.Null(byFields.SeriesId);
        Assert.Equal(new Dictionary<string, string> { ["mode"] = "iocp", ["stack"] = "grpc" }, byFields.Filters);

        Assert.True(byFields.AppliesTo(Series("grpc", "compute", "iocp")));
        Assert.False(byFields.AppliesTo(Series("soap", "compute", "iocp")));
        Assert.False(byFields.AppliesTo(Series("grpc", "compute", "threadpool")));
        Assert.True(byId.AppliesTo(Series("grpc", "compute", "iocp")));
        Assert.False(byId.AppliesTo(Series("grpc", "compute", "custompool")));

        var intended = Threshold.Parse("model=open:co-p99<200ms");
        Assert.True(intended.Intended);
        Assert.Equal("co-p99", intended.MetricName);
        Assert.False(Threshold.Parse("co-mean<1s").AppliesTo(Series("grpc", "compute", "iocp")));
    }

    [Theory]
    [InlineData("", "it is empty")]
    [InlineData("latency<5s", "unknown metric 'latency'")]
    [InlineData("p99=4500ms", "unknown operator '=' for 'p99': '=' compares counts only (errors, starvation-threads)")]
    [InlineData("p99=<4500ms", "unknown operator '=<'")]
    [InlineData("p99 4500ms", "the operator is missing")]
    [InlineData("p99<", "the value is missing")]
    [InlineData("p99<4.5.1s", "'p99<4.5.1s' is not metric, operator, value (e.g. p99<4500ms)")]
    [InlineData("p99<4500kb", "unit 'kb' is not a latency unit (ms, s, us)")]
    [InlineData("rps>=20%", "'rps' takes no unit '%'")]
    [InlineData("threads<10ms", "'threads' takes no unit 'ms'")]
    [InlineData("p101<5s", "percentile 'p101' is outside p0–p100")]
    [InlineData("co-rps>5", "unknown metric 'co-rps'")]
    [InlineData(":p99<5s", "the scope before ':' is empty")]
    [InlineData("color=red:p99<5s", "scope part 'color=red' is not key=value with a key of stack, operation, mode, model, id")]
    [InlineData("mode=iocp,mode=custompool:p99<5s", "scope key 'mode' is given twice")]
    [InlineData("grpc compute:p99<5s", "scope 'grpc compute' is neither a series id nor key=value pairs")]
    public void Invalid_expressions_say_what_is_wrong_and_list_the_valid_syntax(string text, string reason)
    {
        var error = Assert.Throws<FormatException>(() => Threshold.Parse(text));

        Assert.Contains($"Invalid threshold \"{text}\": {reason}.", error.Message, StringComparison.Ordinal);
        Assert.Contains("Metrics: mean, p<N>", error.Message, StringComparison.Ordinal);
        Assert.Contains("Operators: <, <=, >, >=", error.Message, StringComparison.Ordinal);
        Assert.Contains("Units: ms (the default), s, us", error.Message, StringComparison.Ordinal);
        Assert.Contains("% after errors", error.Message, StringComparison.Ordinal);
    }

    private static RunData TwoModeRun()
    {
        // threadpool: 100 requests at 10 s, 5 of them failed; iocp: 100 requests at 4 s, none failed. Both over 2 s.
        return Run(
        [
            (Series("grpc", "call-third-party", "threadpool"),
            [
                Sample(0, 50, Histogram((10_000_000, 45)), failures: 5, server: Server("threadpool", 80, 40, 12, 1, 1000, 100)),
                Sample(1, 50, Histogram((10_000_000, 50)), server: Server("threadpool", 90, 40, 3, 2, 2000, 200)),
            ]),
            (Series("grpc", "call-third-party", "iocp"),
            [
                Sample(0, 50, Histogram((4_000_000, 50))),
                Sample(1, 50, Histogram((4_000_000, 50))),
            ]),
        ]);
    }

    [Fact]
    public void Evaluation_checks_every_series_in_scope_and_reports_the_actual_value()
    {
        var results = ThresholdEvaluator.Evaluate(TwoModeRun(), [Threshold.Parse("p99<4500ms")]);

        Assert.Equal(2, results.Count);
        var threadpool = results.Single(r => r.SeriesId == "grpc-call-third-party-threadpool");
        Assert.False(threadpool.Passed);
        Assert.Equal(10_000, threadpool.Actual!.Value, 6);
        Assert.Equal("p99 = 10,000 ms, limit < 4,500 ms", threadpool.Message);
        var iocp = results.Single(r => r.SeriesId == "grpc-call-third-party-iocp");
        Assert.True(iocp.Passed);
        Assert.Equal(4_000, iocp.Actual!.Value, 6);
        Assert.True(ThresholdEvaluator.AnyFailed(results));
    }

    [Fact]
    public void Errors_rates_throughput_and_server_figures_are_evaluated_in_their_units()
    {
        var run = TwoModeRun();
        Threshold[] thresholds =
        [
            Threshold.Parse("mode=threadpool:errors<5%"),
            Threshold.Parse("mode=threadpool:errors<=5%"),
            Threshold.Parse("mode=threadpool:errors<=5"),
            Threshold.Parse("mode=iocp:rps>=50"),
            Threshold.Parse("mode=threadpool:threads<=90"),
            Threshold.Parse("mode=threadpool:queue<12"),
            Threshold.Parse("mode=threadpool:ctxsw<11.5"),
            Threshold.Parse("grpc-call-third-party-iocp:mean<=4s"),
        ];

        var results = ThresholdEvaluator.Evaluate(run, thresholds);

        Assert.Equal([false, true, true, true, true, false, true, true], results.Select(r => r.Passed));
        Assert.Equal([5, 5, 5, 50, 90, 12, 11, 4000], results.Select(r => r.Actual!.Value));
    }

    [Fact]
    public void A_scope_matching_nothing_or_a_figure_not_measured_fails()
    {
        var results = ThresholdEvaluator.Evaluate(TwoModeRun(),
        [
            Threshold.Parse("mode=custompool:p99<5s"),
            Threshold.Parse("grpc-call-third-party-iocp:threads<100"),
            Threshold.Parse("co-p99<5s"),
        ]);

        Assert.All(results, r => Assert.False(r.Passed));
        Assert.Null(results[0].SeriesId);
        Assert.Contains("no series matched", results[0].Message, StringComparison.Ordinal);
        Assert.Equal("grpc-call-third-party-iocp", results[1].SeriesId);
        Assert.Contains("not measured", results[1].Message, StringComparison.Ordinal);
        Assert.Null(results[2].SeriesId);
        Assert.Equal("no open-model series matched (co- metrics need one)", results[2].Message);

        var text = ThresholdText.ToText(results);
        Assert.Contains("3 threshold checks: 0 passed, 3 failed, 0 not judged.", text, StringComparison.Ordinal);
        Assert.Contains("FAIL", text, StringComparison.Ordinal);
    }

    [Fact]
    public void Intended_start_thresholds_apply_to_open_model_series()
    {
        var run = Run(
        [
            (Series("grpc", "compute", "iocp", model: "open"),
            [
                Sample(0, 10, Histogram((100_000, 10)), intended: Histogram((100_000, 5), (900_000, 5))),
            ]),
            (Series("grpc", "compute", "threadpool"), [Sample(0, 10, Histogram((100_000, 10)))]),
        ]);

        var results = ThresholdEvaluator.Evaluate(run, [Threshold.Parse("co-p99<500ms"), Threshold.Parse("p99<500ms")]);

        var intended = results.Single(r => r.Threshold.Intended);
        Assert.Equal("grpc-compute-iocp", intended.SeriesId);
        Assert.False(intended.Passed);
        Assert.Equal(900, intended.Actual!.Value, 0);
        Assert.Equal(2, results.Count(r => !r.Threshold.Intended && r.Passed));
    }
}
