using System.Diagnostics;

namespace Harness.LoadTests.Tests.Containers;

/// <summary>
/// What the Docker tests need: a Docker engine and the harness images (scripts/build-images.sh; .ci/run builds them).
/// On a machine without Docker, run the suite with <c>--filter Category!=Docker</c>.
/// </summary>
internal static class Docker
{
    public static string RepositoryRoot { get; } = FindRoot();

    /// <summary>Runs a command to its end (bounded by <paramref name="timeout"/>) and returns its exit code and output.</summary>
    public static async Task<(int ExitCode, string Output)> RunAsync(
        string file, IEnumerable<string> args, TimeSpan timeout, IReadOnlyDictionary<string, string>? env = null)
    {
        var start = new ProcessStartInfo(file) { WorkingDirectory = RepositoryRoot, RedirectStandardOutput = true, RedirectStandardError = true };
        foreach (var arg in args)
        {
            start.ArgumentList.Add(arg);
        }

        foreach (var (key, value) in env ?? new Dictionary<string, string>())
        {
            start.Environment[key] = value;
        }

        using var process = Process.Start(start) ?? throw new InvalidOperationException($"{file} did not start.");
        var stdout = process.StandardOutput.ReadToEndAsync();
        var stderr = process.StandardError.ReadToEndAsync();
        using var cts = new CancellationTokenSource(timeout);
        try
        {
            await process.WaitForExitAsync(cts.Token);
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            throw new TimeoutException($"{file} {string.Join(' ', args)} ran longer than {timeout}: {await stdout}{await stderr}");
        }

        return (process.ExitCode, await stdout + await stderr);
    }

    /// <summary>Containers carrying a label, e.g. <c>harness.run=…</c>, or <c>com.docker.compose.project=…</c>.</summary>
    public static async Task<string[]> ContainersLabelledAsync(string label)
    {
        var (_, output) = await RunAsync("docker", ["ps", "-aq", "--filter", $"label={label}"], TimeSpan.FromSeconds(30));
        return output.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
    }

    private static string FindRoot()
    {
        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
        {
            if (File.Exists(Path.Combine(dir.FullName, "Harness.sln")))
            {
                return dir.FullName;
            }
        }

        throw new InvalidOperationException("Harness.sln not found above the test assembly.");
    }
}
