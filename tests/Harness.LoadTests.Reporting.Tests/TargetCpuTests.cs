using Harness.LoadTests.Recording;
using Harness.Metrics;
using static Harness.LoadTests.Reporting.Tests.Runs;

namespace Harness.LoadTests.Reporting.Tests;

/// <summary>
/// Each target's processors and CPU limit, read from its scraped /metrics, shown per series; a warning when the modes
/// of one comparison ran on different processor counts (a pod limited to 1 CPU against a 2-core laptop).
/// </summary>
public sealed class TargetCpuTests
{
    // A compute group of two modes, 5 s each; each target's /metrics says its processors and its CPU limit (null: none published).
    private static RunData Compute((string Mode, int Processors, double? Limit)[] targets)
    {
        return Run(targets.Select(t =>
        {
            var info = Series("grpc", "compute", t.Mode, idealLatencyMs: 100);
            IReadOnlyList<SecondSample> samples = [.. Enumerable.Range(0, 5).Select(s =>
            {
                var server = Server(t.Mode, 20, 2, 0, 1 + s, 1000, 100);
                server[MetricNames.Processors] = t.Processors;
                if (t.Limit is { } limit)
                {
                    server[MetricNames.CpuLimitCores] = limit;
                }

                return Sample(s, 4, Histogram((100_000, 10)), server: server);
            })];
            return (info, samples);
        }));
    }

    [Fact]
    public void The_summary_reads_processors_and_limit_and_tells_no_limit_from_not_reported()
    {
        // Arrange
        var run = Compute([("threadpool", 2, MetricNames.NoCpuLimit), ("iocp", 1, 1.5), ("custompool", 2, null)]);

        // Act
        var cpu = SeriesSummary.ForRun(run).ToDictionary(s => s.Series.Mode, s => s.Cpu);

        // Assert
        Assert.Equal(new TargetCpu(2, null, true), cpu["threadpool"]);
        Assert.Equal(new TargetCpu(1, 1.5, true), cpu["iocp"]);
        Assert.Equal(new TargetCpu(2, null, false), cpu["custompool"]);
    }

    [Fact]
    public void A_target_that_predates_the_gauge_gives_its_processors_by_the_info_label()
    {
        // Arrange: Runs.Server publishes harness_info{...,processors="2",...} and no harness_processors.
        var samples = new[] { Sample(0, 1, Histogram((1_000, 1)), server: Server("iocp", 20, 2, 0, 1, 1000, 100)) };

        // Act
        var cpu = TargetCpu.From(samples);

        // Assert
        Assert.Equal(new TargetCpu(2, null, false), cpu);
        Assert.Equal(TargetCpu.Unknown, TargetCpu.From([Sample(0, 1, Histogram((1_000, 1)))]));
    }

    [Fact]
    public void Modes_on_different_processor_counts_get_a_warning_in_the_page_and_the_markdown()
    {
        // Arrange: threadpool on a 2-core machine without a limit, iocp in a pod limited to 1 CPU.
        var run = Compute([("threadpool", 2, MetricNames.NoCpuLimit), ("iocp", 1, 1)]);

        // Act
        var html = HtmlReport.Render(RunAnalysis.Of(run));
        var markdown = MarkdownReport.Render(RunAnalysis.Of(run));

        // Assert
        const string Targets = "threadpool: 2 processors, CPU limit none, iocp: 1 processor, CPU limit 1";
        Assert.Contains($"<div class=\"notice cpu-mismatch\"><b>Warning</b>: The targets compared here had different processor counts ({Targets}).", html, StringComparison.Ordinal);
        Assert.Contains($"**Warning:** The targets compared here had different processor counts ({Targets}).", markdown, StringComparison.Ordinal);
        Assert.Contains("Targets' CPU (processors the runtime used, cgroup CPU limit): threadpool 2 processors, CPU limit none · iocp 1 processor, CPU limit 1", markdown, StringComparison.Ordinal);
        Assert.Contains("<td class=\"text\">http://127.0.0.1:5001</td><td>1</td><td>1</td>", html, StringComparison.Ordinal);
        Assert.Contains("<td class=\"text\">http://127.0.0.1:5001</td><td>2</td><td>none</td>", html, StringComparison.Ordinal);
    }

    [Fact]
    public void Modes_on_the_same_processor_count_get_no_warning_even_with_different_limits()
    {
        // Arrange: a limit of 1.5 still gives the runtime 2 processors, as 2 cores without a limit do.
        var run = Compute([("threadpool", 2, MetricNames.NoCpuLimit), ("iocp", 2, 1.5)]);

        // Act
        var html = HtmlReport.Render(RunAnalysis.Of(run));
        var markdown = MarkdownReport.Render(RunAnalysis.Of(run));

        // Assert
        Assert.DoesNotContain("cpu-mismatch", html, StringComparison.Ordinal);
        Assert.DoesNotContain("different processor counts", markdown, StringComparison.Ordinal);
        Assert.Contains("iocp 2 processors, CPU limit 1.5", markdown, StringComparison.Ordinal);
    }
}
