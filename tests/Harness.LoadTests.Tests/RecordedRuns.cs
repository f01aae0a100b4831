using Harness.LoadTests.Recording;

namespace Harness.LoadTests.Tests;

/// <summary>Run folders written without load, for the commands that only read one (report, compare).</summary>
internal static class RecordedRuns
{
    /// <summary>
    /// Writes a run of one series per stack in <paramref name="stacks"/> (default grpc alone), <c>{stack}-compute-iocp</c>,
    /// each with <paramref name="seconds"/> seconds of 10 requests, <paramref name="failures"/> of them failed (the rest
    /// timed), under the profile named <paramref name="profile"/>.
    /// </summary>
    public static string Write(string folder, int seconds = 5, string profile = "quick", int failures = 0, IReadOnlyList<string>? stacks = null)
    {
        var series = (stacks ?? ["grpc"]).Select(stack => new SeriesInfo(
            $"{stack}-compute-iocp", stack, "compute", "iocp", "http://127.0.0.1:1", "closed",
            new Dictionary<string, string> { ["iterations"] = "1000" }, 0, null, null)).ToList();
        var manifest = new RunManifest(
            RunManifest.CurrentFormatVersion, Path.GetFileName(folder), DateTimeOffset.Now, profile, "{}", 1, ["iocp"], series,
            new MachineInfo(2, "Linux", "10.0", "test"), "harness run", ["test"]);
        var timeline = Enumerable.Range(0, seconds).Select(second =>
        {
            var latency = new LatencyHistogram();
            for (var i = 0; i < 10 - failures; i++)
            {
                latency.Record(TimeSpan.FromMilliseconds(5 + i));
            }

            LatencyHistogram? failed = null;
            for (var i = 0; i < failures; i++)
            {
                (failed ??= new LatencyHistogram()).Record(TimeSpan.FromMilliseconds(2));
            }

            return new SecondSample(second, 4, 10, failures, new Dictionary<string, long>(), latency, null, new Dictionary<string, double>(), failed);
        }).ToList();
        RawRunWriter.Write(folder, new RunData(manifest, series.ToDictionary(s => s.Id, _ => (IReadOnlyList<SecondSample>)timeline), []));
        return folder;
    }
}
