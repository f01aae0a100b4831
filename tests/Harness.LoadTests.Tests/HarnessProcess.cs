using System.Diagnostics;
using System.Globalization;
using System.Text;
using Harness.LoadTests.Commands;

namespace Harness.LoadTests.Tests;

/// <summary>The harness as a process of its own, as a shell, <c>docker stop</c> or <c>kill</c> reach it.</summary>
internal sealed class HarnessProcess : IDisposable
{
    private readonly Process _process;
    private readonly StringBuilder _output = new();
    private readonly List<(string Text, TaskCompletionSource Seen)> _waits = [];

    private HarnessProcess(Process process) => _process = process;

    public int Id => _process.Id;

    public int ExitCode => _process.ExitCode;

    public string Output
    {
        get
        {
            lock (_output)
            {
                return _output.ToString();
            }
        }
    }

    public static HarnessProcess Start(params string[] args) => Start(new Dictionary<string, string>(), args);

    /// <summary>Starts the harness with <paramref name="environment"/> added to this process's variables.</summary>
    public static HarnessProcess Start(IReadOnlyDictionary<string, string> environment, params string[] args)
    {
        var start = new ProcessStartInfo("dotnet") { RedirectStandardOutput = true, RedirectStandardError = true };
        foreach (var (name, value) in environment)
        {
            start.Environment[name] = value;
        }

        foreach (var arg in (string[])[typeof(HarnessCli).Assembly.Location, .. args])
        {
            start.ArgumentList.Add(arg);
        }

        var harness = new HarnessProcess(new Process { StartInfo = start });
        harness._process.OutputDataReceived += (_, e) => harness.Append(e.Data);
        harness._process.ErrorDataReceived += (_, e) => harness.Append(e.Data);
        harness._process.Start();
        harness._process.BeginOutputReadLine();
        harness._process.BeginErrorReadLine();
        return harness;
    }

    /// <summary>Completes when a line containing <paramref name="text"/> is printed (or was already).</summary>
    public Task WaitForLineAsync(string text, TimeSpan timeout)
    {
        var seen = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        lock (_output)
        {
            if (_output.ToString().Contains(text, StringComparison.Ordinal))
            {
                return Task.CompletedTask;
            }

            _waits.Add((text, seen));
        }

        return seen.Task.WaitAsync(timeout);
    }

    public async Task SignalAsync(string signal) =>
        await Containers.Docker.RunAsync("kill", [$"-{signal}", Id.ToString(CultureInfo.InvariantCulture)], TimeSpan.FromSeconds(10));

    public Task WaitForExitAsync(TimeSpan timeout) => _process.WaitForExitAsync().WaitAsync(timeout);

    public void Dispose()
    {
        if (!_process.HasExited)
        {
            _process.Kill(entireProcessTree: true);
        }

        _process.Dispose();
    }

    private void Append(string? line)
    {
        if (line is null)
        {
            return;
        }

        lock (_output)
        {
            _output.AppendLine(line);
            foreach (var wait in _waits.Where(w => line.Contains(w.Text, StringComparison.Ordinal)).ToList())
            {
                wait.Seen.TrySetResult();
                _waits.Remove(wait);
            }
        }
    }
}

/// <summary>Processes by pid, from /proc (Linux).</summary>
internal static class ProcessTree
{
    /// <summary>Every process below <paramref name="pid"/>: children, their children, and so on.</summary>
    public static IReadOnlyList<int> Descendants(int pid)
    {
        var parents = new Dictionary<int, int>();
        foreach (var dir in Directory.EnumerateDirectories("/proc"))
        {
            if (int.TryParse(Path.GetFileName(dir), NumberStyles.None, CultureInfo.InvariantCulture, out var id) && ParentOf(id) is { } parent)
            {
                parents[id] = parent;
            }
        }

        var found = new List<int>();
        var frontier = new Queue<int>([pid]);
        while (frontier.TryDequeue(out var current))
        {
            foreach (var child in parents.Where(p => p.Value == current).Select(p => p.Key))
            {
                found.Add(child);
                frontier.Enqueue(child);
            }
        }

        return found;
    }

    /// <summary>The process's command line, its arguments joined by spaces; empty once it is gone.</summary>
    public static string CommandLine(int pid)
    {
        try
        {
            return File.ReadAllText($"/proc/{pid}/cmdline").Replace('\0', ' ');
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return "";
        }
    }

    /// <summary>"pid state parent: command line", for a failure message.</summary>
    public static string Describe(int pid) =>
        Stat(pid) is { } stat ? $"{pid} {stat.State} (parent {stat.Parent}): {CommandLine(pid).Split('\n')[0]}" : $"{pid} gone";

    /// <summary>True while the process exists and is not a zombie (dead, waiting to be reaped).</summary>
    public static bool IsAlive(int pid) => Stat(pid) is { } stat && stat.State != 'Z';

    private static int? ParentOf(int pid) => Stat(pid)?.Parent;

    // /proc/<pid>/stat: "pid (comm) state ppid ..."; comm may hold spaces and parentheses, so split after the last ')'.
    private static (char State, int Parent)? Stat(int pid)
    {
        try
        {
            var text = File.ReadAllText($"/proc/{pid}/stat");
            var fields = text[(text.LastIndexOf(')') + 2)..].Split(' ');
            return (fields[0][0], int.Parse(fields[1], CultureInfo.InvariantCulture));
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or FormatException or IndexOutOfRangeException or ArgumentOutOfRangeException)
        {
            return null;
        }
    }
}
