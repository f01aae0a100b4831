using Harness.LoadTests.Reporting.Analysis;
using Harness.LoadTests.Running;
using Spectre.Console;

namespace Harness.LoadTests.Tests;

/// <summary><c>harness report RUN</c>: renders a run folder's raw files again.</summary>
public sealed class ReportCommandTests
{
    [Fact]
    public async Task Report_OfARunWithACutOffLastLine_PrintsTheReadersWarningAndRendersTheRest()
    {
        // Arrange: what a crash while appending leaves, a last line cut short.
        var folder = RecordedRuns.Write(Path.Combine(HarnessRun.TempFolder(), "run"));
        var series = Path.Combine(folder, "series", "grpc-compute-iocp.jsonl");
        await File.AppendAllTextAsync(series, "{\"second\":5,\"us");

        // Act
        var (exitCode, text) = await HarnessRun.InvokeAsync("report", folder);

        // Assert
        Assert.True(exitCode == 0, text);
        var warning = Assert.Single(text.Split('\n'), l => l.StartsWith("warning:", StringComparison.Ordinal));
        Assert.Contains(series, warning, StringComparison.Ordinal);
        Assert.True(File.Exists(Path.Combine(folder, "index.html")));
    }

    [Fact]
    public async Task Report_OfARelativeRunFolder_PrintsTheReportsAbsolutePath_AsRunDoes()
    {
        var folder = RecordedRuns.Write(Path.Combine(HarnessRun.TempFolder(), "run"));
        var relative = Path.GetRelativePath(Environment.CurrentDirectory, folder);

        var (exitCode, text) = await HarnessRun.InvokeAsync("report", relative);

        Assert.True(exitCode == 0, text);
        var line = Assert.Single(text.Split('\n'), l => l.StartsWith("Report:", StringComparison.Ordinal));
        Assert.Equal("Report: " + Path.Combine(folder, "index.html"), line.TrimEnd());
    }

    [Fact]
    public async Task Report_OfATwoMinuteSoak_DoesNotJudgeItsGrowthOrDrift_AndExitsZero()
    {
        // Arrange: the soak overlay's smoke run, 2 minutes: too short for a growth per hour or a drift.
        var folder = RecordedRuns.Write(Path.Combine(HarnessRun.TempFolder(), "run"), seconds: 120, profile: "soak");

        // Act
        var (exitCode, text) = await HarnessRun.InvokeAsync("report", folder);

        // Assert
        Assert.True(exitCode == 0, text);
        Assert.Contains("5 threshold checks: 1 passed, 0 failed, 4 not judged.", text, StringComparison.Ordinal);
        Assert.Contains("memory growth not judged: the growth window (the second half of the 2 min measured) was 1 min", text, StringComparison.Ordinal);
        Assert.Contains("not judged", File.ReadAllText(Path.Combine(folder, "summary.md")), StringComparison.Ordinal);
    }

    [Fact]
    public async Task Report_OfATwoMinuteSoakWithErrors_FailsOnThemAlone_AndExitsOne()
    {
        var folder = RecordedRuns.Write(Path.Combine(HarnessRun.TempFolder(), "run"), seconds: 120, profile: "soak", failures: 1);

        var (exitCode, text) = await HarnessRun.InvokeAsync("report", folder);

        Assert.True(exitCode == 1, text);
        Assert.Contains("5 threshold checks: 0 passed, 1 failed, 4 not judged.", text, StringComparison.Ordinal);
    }

    [Fact]
    public void ARunsReport_WithAStackRatioThreshold_ExitsOneWhenItFails_AndZeroWhenItHolds()
    {
        // Both stacks answered alike, so gRPC ÷ SOAP is 1.00× on every figure. RunReport.Render is what `run` ends with.
        var folder = RecordedRuns.Write(Path.Combine(HarnessRun.TempFolder(), "run"), stacks: ["soap", "grpc"]);
        var writer = new StringWriter();
        var console = AnsiConsole.Create(new AnsiConsoleSettings { Ansi = AnsiSupport.No, ColorSystem = ColorSystemSupport.NoColors, Out = new AnsiConsoleOutput(writer) });
        console.Profile.Width = 4096;

        var failed = RunReport.Render(console, folder, [Threshold.Parse("stack=grpc/stack=soap:mean<0.9x")]);
        var held = RunReport.Render(console, folder, [Threshold.Parse("stack=grpc/stack=soap:mean<=1.1x")]);

        Assert.Equal((1, 0), (failed, held));
        Assert.Contains("mean grpc ÷ soap = 1.00× single run, limit < 0.90×", writer.ToString(), StringComparison.Ordinal);
        Assert.Contains("## gRPC ÷ SOAP", File.ReadAllText(Path.Combine(folder, "summary.md")), StringComparison.Ordinal);
    }
}
