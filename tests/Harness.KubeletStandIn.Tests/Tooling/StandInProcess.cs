using System.Collections.Concurrent;
using System.Diagnostics;
using System.Text.RegularExpressions;

namespace Harness.KubeletStandIn.Tests.Tooling;

/// <summary>What a finished run printed and returned.</summary>
public sealed record StandInResult(int ExitCode, IReadOnlyList<string> StandardOutput, string StandardError, TimeSpan Took)
{
    public string Output => string.Join('\n', StandardOutput) + "\n" + StandardError;

    public string LastLine => StandardOutput.LastOrDefault(l => l.Length > 0) ?? "";

    /// <summary>The run id the stand-in labels everything with ("run kubelet-... on ...").</summary>
    public string RunId => RunIdOf(StandardOutput) ?? throw new InvalidOperationException("no run id in the output:\n" + Output);

    public int Restarts => int.Parse(Regex.Match(LastLine, "^restarts: ([0-9]+)$").Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture);

    internal static string? RunIdOf(IEnumerable<string> lines) =>
        lines.Select(l => Regex.Match(l, @" run (kubelet-\S+) on ")).FirstOrDefault(m => m.Success)?.Groups[1].Value;
}

/// <summary>
/// The stand-in as a child process (dotnet Harness.KubeletStandIn.dll, which the project reference puts beside the
/// tests), so the tests see exactly what a user sees: its exit code, its lines, its reaction to signals.
/// </summary>
public sealed class StandInProcess : IDisposable
{
    private readonly Process _process;
    private readonly ConcurrentQueue<string> _output = new();
    private readonly System.Text.StringBuilder _error = new();
    private readonly Stopwatch _clock = Stopwatch.StartNew();

    private StandInProcess(Process process) => _process = process;

    public static StandInProcess Start(params string[] args)
    {
        var start = new ProcessStartInfo("dotnet") { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        start.ArgumentList.Add(Path.Combine(AppContext.BaseDirectory, "Harness.KubeletStandIn.dll"));
        foreach (var arg in args)
        {
            start.ArgumentList.Add(arg);
        }

        var process = new Process { StartInfo = start };
        var run = new StandInProcess(process);
        process.OutputDataReceived += (_, e) => { if (e.Data is not null) { run._output.Enqueue(e.Data); } };
        process.ErrorDataReceived += (_, e) => { if (e.Data is not null) { lock (run._error) { run._error.AppendLine(e.Data); } } };
        process.Start();
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        return run;
    }

    /// <summary>Runs to the end, bounded.</summary>
    public static StandInResult Run(TimeSpan bound, params string[] args)
    {
        using var run = Start(args);
        return run.WaitForExit(bound);
    }

    public string? RunId => StandInResult.RunIdOf(_output);

    /// <summary>Waits, bounded, for a line of output containing <paramref name="text"/>.</summary>
    public void WaitForLine(string text, TimeSpan bound)
    {
        var deadline = DateTime.UtcNow + bound;
        while (!_output.Any(l => l.Contains(text, StringComparison.Ordinal)))
        {
            if (DateTime.UtcNow > deadline || _process.HasExited)
            {
                throw new TimeoutException($"no line with '{text}' within {bound.TotalSeconds:0} s; output so far:\n{string.Join('\n', _output)}\n{_error}");
            }

            Thread.Sleep(100);
        }
    }

    /// <summary>Sends a signal by name (INT, TERM) with kill(1), as a terminal or a supervisor would.</summary>
    public void Signal(string signal)
    {
        using var kill = Process.Start("kill", ["-s", signal, _process.Id.ToString(System.Globalization.CultureInfo.InvariantCulture)]);
        kill.WaitForExit(5000);
        if (kill.ExitCode != 0)
        {
            throw new InvalidOperationException($"kill -s {signal} {_process.Id} failed ({kill.ExitCode})");
        }
    }

    public StandInResult WaitForExit(TimeSpan bound)
    {
        if (!_process.WaitForExit(bound))
        {
            _process.Kill(entireProcessTree: true);
            throw new TimeoutException($"the stand-in did not exit within {bound.TotalSeconds:0} s; output:\n{string.Join('\n', _output)}\n{_error}");
        }

        _process.WaitForExit();
        lock (_error)
        {
            return new StandInResult(_process.ExitCode, [.. _output], _error.ToString(), _clock.Elapsed);
        }
    }

    public void Dispose()
    {
        if (!_process.HasExited)
        {
            _process.Kill(entireProcessTree: true);
        }

        _process.Dispose();
    }
}
