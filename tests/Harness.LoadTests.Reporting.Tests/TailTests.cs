using HdrHistogram;
using Harness.LoadTests.Recording;
using static Harness.LoadTests.Reporting.Tests.Runs;

namespace Harness.LoadTests.Reporting.Tests;

public sealed class TailTests
{
    [Fact]
    public void P99_9_and_p99_99_are_read_from_the_merged_histogram()
    {
        // 10,000 requests: 9,988 at 1 ms, 10 at 2 ms, 2 at 900 ms. Rank 9,990 is 2 ms; rank 9,999 is 900 ms.
        var stats = LatencyStats.From(Histogram((1_000, 9_988), (2_000, 10), (900_000, 2)));

        Assert.Equal(1, stats.P99Ms);
        Assert.Equal(2, stats.P999Ms);
        Assert.Equal(900, stats.P9999Ms);
    }

    [Fact]
    public void The_tail_is_in_the_tables_the_compare_and_the_thresholds()
    {
        var info = Series("grpc", "compute", "iocp");
        var a = Run([(info, [Sample(0, 4, Histogram((1_000, 9_988), (2_000, 10), (900_000, 2)))])]);
        var b = Run([(info, [Sample(0, 4, Histogram((1_000, 9_998), (900_000, 2)))])], runId: "b");

        var results = ThresholdEvaluator.Evaluate(a, [Threshold.Parse("p99.9<5s"), Threshold.Parse("p99.99<500ms")]);
        var comparison = MultiRunComparison.Build([a, b]).Pairings[0];

        Assert.Equal([true, false], results.Select(r => r.Passed));
        Assert.Equal(900, results[1].Actual);
        Assert.Equal(-50, comparison.Matched[0].Changes.Single(c => c.Metric == SeriesPairing.P999Ms).PercentChange);
        Assert.Contains("p99.99 ms", ComparisonText.ToText(comparison), StringComparison.Ordinal);
        Assert.Contains("| mode | requests | req/s | mean ms | p50 ms | p90 ms | p99 ms | p99.9 ms | p99.99 ms |", MarkdownReport.Render(RunAnalysis.Of(a)), StringComparison.Ordinal);
        Assert.Contains("<th>p99.9</th><th>p99.99</th>", HtmlReport.Render(RunAnalysis.Of(a)), StringComparison.Ordinal);
    }

    [Fact]
    public void The_spectrum_points_are_hdr_histograms_own_percentiles_of_the_merged_histogram()
    {
        var random = new Random(5);
        var reference = new LongHistogram(1, LatencyHistogram.HighestTrackableMicroseconds, LatencyHistogram.SignificantDigits);
        var samples = new List<SecondSample>();
        long max = 0;
        for (var s = 0; s < 20; s++)
        {
            var second = new LatencyHistogram();
            for (var r = 0; r < 500; r++)
            {
                // A long tail: mostly 2–20 ms, now and then up to two seconds.
                var value = (long)(2_000 + (18_000 * random.NextDouble()) + (random.NextDouble() < 0.01 ? 2_000_000 * random.NextDouble() : 0));
                second.Record(value);
                if (s >= 2)
                {
                    reference.RecordValue(value);
                    max = Math.Max(max, value);
                }
            }

            samples.Add(Sample(s, 10, second));
        }

        var summary = SeriesSummary.From(Series("grpc", "compute", "iocp") with { WarmUpSeconds = 2 }, samples);

        var spectrum = PercentileSpectrum.Of(summary.Histogram);

        Assert.Equal(9_000, spectrum.Count);
        Assert.Equal(max / 1000.0, spectrum.MaxMs);
        Assert.Equal([0, 10, 20, 30, 40, 50, 55, 60, 65, 70, 75, 77.5], spectrum.Points.Take(12).Select(p => Math.Round(p.Percentile, 9)));
        Assert.True(1 / (1 - (spectrum.Points[^1].Percentile / 100)) <= 9_000);
        Assert.True(spectrum.Points.Count > 60, $"{spectrum.Points.Count} points");
        Assert.All(spectrum.Points, p => Assert.Equal(Math.Min(reference.GetValueAtPercentile(p.Percentile), max) / 1000.0, p.Ms));
    }

    [Fact]
    public void The_heatmap_counts_each_second_s_requests_in_their_latency_band()
    {
        // 1,000 µs lies in band k = ⌊4·log2 1000⌋ = 39 (2^(39/4) = 861 µs ≤ 1,000 < 2^(40/4) = 1,024 µs); 8,000 µs in k = 51.
        var a = new List<SecondSample> { Sample(0, 4, Histogram((1_000, 30), (8_000, 2))), Sample(2, 4, Histogram((8_000, 5))) };
        var b = new List<SecondSample> { Sample(1, 4, Histogram((1_000, 7))) };

        var heatmap = LatencyHeatmap.Of([a, b]);

        Assert.Equal((39, 13, 1), (heatmap.FirstBin, heatmap.Bins, heatmap.SecondsPerColumn));
        Assert.Equal([(0, 0, 30L), (0, 12, 2L), (2, 12, 5L)], heatmap.Cells[0]);
        Assert.Equal([(1, 0, 7L)], heatmap.Cells[1]);
        Assert.InRange(1.0, heatmap.EdgeMs(0), heatmap.EdgeMs(1));
        Assert.InRange(8.0, heatmap.EdgeMs(12), heatmap.EdgeMs(13));
    }

    [Fact]
    public void A_long_series_heatmap_joins_seconds_into_at_most_600_columns()
    {
        var samples = Enumerable.Range(0, 1_500).Select(s => Sample(s, 4, Histogram((5_000, 1)))).ToList();

        var heatmap = LatencyHeatmap.Of([samples]);

        Assert.Equal(3, heatmap.SecondsPerColumn);
        Assert.Equal(500, heatmap.Cells[0].Count);
        Assert.All(heatmap.Cells[0], c => Assert.Equal(3, c.Count));
    }

    [Fact]
    public void Successes_are_counted_by_status_when_every_second_counted_them()
    {
        var info = Series("grpc", "compute", "iocp");
        var counted = new[]
        {
            Sample(0, 4, Histogram((1_000, 10)), failures: 1) with { SuccessCounts = new Dictionary<string, long> { ["OK"] = 10 } },
            Sample(1, 4, Histogram((1_000, 5))) with { SuccessCounts = new Dictionary<string, long> { ["OK"] = 3, ["http-200"] = 2 } },
        };

        var summary = SeriesSummary.From(info, counted);
        var older = SeriesSummary.From(info, [counted[0], counted[1] with { SuccessCounts = null }]);
        var markdown = MarkdownReport.Render(RunAnalysis.Of(Run([(info, counted)])));

        Assert.Equal([new("OK", 13L), new KeyValuePair<string, long>("http-200", 2)], summary.SuccessesByStatus);
        Assert.Empty(older.SuccessesByStatus);
        Assert.Contains("Successes by status:\n\n- iocp: OK 13, http-200 2", markdown.ReplaceLineEndings("\n"), StringComparison.Ordinal);
        Assert.Contains("- iocp: timeout 1", markdown, StringComparison.Ordinal);
    }
}
