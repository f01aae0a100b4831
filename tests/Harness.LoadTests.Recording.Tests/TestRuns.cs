namespace Harness.LoadTests.Recording.Tests;

/// <summary>A folder under the temporary directory, deleted with the test.</summary>
internal sealed class TemporaryDirectory : IDisposable
{
    public TemporaryDirectory() => Directory.CreateDirectory(Path);

    public string Path { get; } = System.IO.Path.Combine(System.IO.Path.GetTempPath(), "harness-recording-" + Guid.NewGuid().ToString("N"));

    public string Sub(string name) => System.IO.Path.Combine(Path, name);

    public void Dispose() => Directory.Delete(Path, recursive: true);
}

internal static class TestRuns
{
    public static SeriesInfo Series(string id, double offsetSeconds = 0, string model = "closed") =>
        new(id, "grpc", "compute", "iocp", "http://localhost:5001", model, new Dictionary<string, string> { ["iterations"] = "1000" }, offsetSeconds, 1.5, null);

    public static RunManifest Manifest(string agent, params SeriesInfo[] series) => new(
        RunManifest.CurrentFormatVersion,
        "20261122-011900",
        new DateTimeOffset(2026, 11, 22, 1, 19, 0, TimeSpan.Zero),
        "ramp",
        """{"stages":[{"users":10,"seconds":30}]}""",
        1,
        ["iocp"],
        series,
        new MachineInfo(2, "Linux", "10.0.0", "1.0.0"),
        "harness-load run --profile ramp",
        [agent]);

    public static SecondSample Sample(int second, params long[] latencies)
    {
        var histogram = new LatencyHistogram();
        foreach (var latency in latencies)
        {
            histogram.Record(latency);
        }

        return new SecondSample(second, 1, latencies.Length, 0, new Dictionary<string, long>(), histogram, null, new Dictionary<string, double>());
    }
}
