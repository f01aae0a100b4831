using Harness.LoadTests.Distributed;
using Harness.LoadTests.Recording;

namespace Harness.LoadTests.Tests.Distributed;

/// <summary>Agents' run folders written without load, as <c>harness run --agent I/N</c> leaves them, for <c>harness merge</c>.</summary>
internal static class AgentFolders
{
    /// <summary>
    /// Writes <c>agent-I-of-N</c> under <paramref name="output"/>: each series with <paramref name="seconds"/> seconds of
    /// <c>10 × (index + 1)</c> requests, and a done marker with <paramref name="doneExitCode"/> (none when null).
    /// </summary>
    public static string Write(
        string output, int index, int count, string runId = "r1", string profile = "quick", double timeScale = 1,
        string[]? series = null, int seconds = 4, int? doneExitCode = 0)
    {
        var folder = Path.Combine(output, AgentSettings.Name(index, count));
        var infos = (series ?? ["grpc-compute-iocp"]).Select(id => new SeriesInfo(
            id, "grpc", "compute", "iocp", "http://127.0.0.1:1", "closed", new Dictionary<string, string> { ["iterations"] = "1000" }, 0, null, null)).ToList();
        var manifest = new RunManifest(
            RunManifest.CurrentFormatVersion, runId, DateTimeOffset.UtcNow, profile, $$"""{"name":"{{profile}}"}""", timeScale, ["iocp"], infos,
            new MachineInfo(2, "Linux", "10.0", "test"), $"harness run --agent {index}/{count}", [$"{AgentSettings.Name(index, count)}@host-{index}"]);
        var timelines = infos.ToDictionary(s => s.Id, IReadOnlyList<SecondSample> (_) => [.. Enumerable.Range(0, seconds).Select(second => Second(second, index))]);
        RawRunWriter.Write(folder, new RunData(manifest, timelines, []));
        if (doneExitCode is { } exit)
        {
            new DoneMarker(AgentSettings.Name(index, count), exit, DateTimeOffset.UtcNow).WriteTo(folder);
        }

        return folder;
    }

    /// <summary>Agent <paramref name="index"/>'s second: <c>index + 1</c> users, each completing 10 requests of (index + 1) × 10 ms.</summary>
    private static SecondSample Second(int second, int index)
    {
        var latency = new LatencyHistogram();
        var requests = 10 * (index + 1);
        for (var i = 0; i < requests; i++)
        {
            latency.Record(TimeSpan.FromMilliseconds((index + 1) * 10));
        }

        var server = index == 0
            ? new Dictionary<string, double> { ["harness_threadpool_threads"] = second }
            : new Dictionary<string, double>();
        return new SecondSample(second, index + 1, requests, 0, new Dictionary<string, long>(), latency, null, server);
    }
}
