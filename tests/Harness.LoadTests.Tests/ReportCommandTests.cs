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
}
