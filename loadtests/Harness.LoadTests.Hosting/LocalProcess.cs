using System.Collections.Concurrent;
using System.Diagnostics;
using System.Text;

namespace Harness.LoadTests.Hosting;

/// <summary>
/// A Harness service started as a child process on free loopback ports. It never outlives this process:
/// <see cref="DisposeAsync"/> kills it on the normal path, <see cref="KillAll"/> on process exit and on an unhandled
/// exception (and the harness calls it on a second Ctrl+C or SIGTERM), and a watchdog beside it kills it when
/// this process dies in a way no handler sees (SIGKILL, a crash of the runtime).
/// </summary>
/// <remarks>
/// The watchdog: on Unix the service is started by a small <c>/bin/sh</c> wrapper that also waits, in a subshell,
/// for end-of-file on its standard input, a pipe whose only writer is this process. The kernel closes that pipe
/// when this process ends, however it ends, and the subshell then SIGKILLs the service. Alternatives were weighed:
/// <c>PR_SET_PDEATHSIG</c> is out of reach of <see cref="Process.Start()"/> and fires when the forking thread
/// exits (a ThreadPool thread may retire at any time); a process group only helps while this process is alive
/// to signal it; a watchdog inside the service polling its parent's pid would put harness knowledge into every
/// service and poll. The pipe needs neither, and reacts at once.
/// </remarks>
public sealed class LocalProcess : IAsyncDisposable
{
    private static readonly ConcurrentDictionary<LocalProcess, byte> Running = new();
    private static readonly TimeSpan StartTimeout = TimeSpan.FromSeconds(60);

    // $1... is the service's command line. fd 3 keeps the pipe for the watchdog; the service gets /dev/null. Its first
    // line names the service's own pid (PidLine), which a runtime attach needs: the shell's is not the runtime's.
    private const string Watchdog = """
        exec 3<&0 0</dev/null
        "$@" 3<&- &
        child=$!
        echo "harness-service-pid $child"
        (while read -r _ <&3; do :; done; kill -KILL "$child" 2>/dev/null) &
        watchdog=$!
        exec 3<&-
        wait "$child"
        code=$?
        kill "$watchdog" 2>/dev/null
        exit "$code"
        """;

    private const string PidLine = "harness-service-pid ";

    private readonly Process _process;
    private readonly StringBuilder _output = new();
    private readonly Lock _killGate = new();
    private readonly string _assemblyName;
    private readonly string[] _args;
    private readonly IReadOnlyList<KeyValuePair<string, string>> _environment;
    private readonly CpuAffinity? _affinity;
    private int _servicePid;

    static LocalProcess()
    {
        AppDomain.CurrentDomain.ProcessExit += (_, _) => KillAll();
        AppDomain.CurrentDomain.UnhandledException += (_, _) => KillAll();
    }

    private LocalProcess(
        string name, string assemblyName, string[] args, IReadOnlyList<KeyValuePair<string, string>> environment, CpuAffinity? affinity,
        Process process, Uri address, Uri adminAddress, Uri metricsAddress)
    {
        Name = name;
        _assemblyName = assemblyName;
        _args = args;
        _environment = environment;
        _affinity = affinity;
        _process = process;
        Address = address;
        AdminAddress = adminAddress;
        MetricsAddress = metricsAddress;
    }

    public string Name { get; }

    public Uri Address { get; }

    /// <summary>HTTP/1.1 admin endpoint: /healthz and /metrics.</summary>
    public Uri AdminAddress { get; }

    /// <summary>/metrics served by the service's dedicated thread (<c>Listen__MetricsPort</c>), which a starved ThreadPool cannot silence.</summary>
    public Uri MetricsAddress { get; }

    public bool HasExited => _process.HasExited;

    /// <summary>
    /// The service's own process id, the one its .NET runtime publishes a diagnostics socket for: the child of the
    /// <c>/bin/sh</c> watchdog on Unix (a <c>taskset</c> in front execs into it), the process itself on Windows; null
    /// until the wrapper has said it.
    /// </summary>
    public int? ServicePid
    {
        get
        {
            var pid = Volatile.Read(ref _servicePid);
            return pid > 0 ? pid : null;
        }
    }

    /// <summary>The exit code once the process has exited, else null.</summary>
    public int? ExitCode => _process.HasExited ? _process.ExitCode : null;

    /// <summary>Completes when the process exits, however it ends (killed included).</summary>
    public Task WaitForExitAsync(CancellationToken cancellationToken) => _process.WaitForExitAsync(cancellationToken);

    /// <summary>The last <paramref name="count"/> lines the process wrote (standard output and error together).</summary>
    public IReadOnlyList<string> OutputTail(int count)
    {
        var lines = Output.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        return lines[Math.Max(0, lines.Length - count)..];
    }

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

    /// <param name="assemblyName">A service assembly copied beside the runner, e.g. <c>Harness.SoapService</c>.</param>
    /// <param name="environment">Variables set for the service alone; by default those this process was given for its
    /// services (<see cref="ServiceEnvironment"/>).</param>
    /// <param name="affinity">The processors the service may run on; null: those this process may run on.</param>
    /// <exception cref="InvalidOperationException">The service exited or was not healthy in time; the message carries its output.</exception>
    public static Task<LocalProcess> StartAsync(
        string name, string assemblyName, IEnumerable<string> args, CancellationToken cancellationToken,
        IReadOnlyList<KeyValuePair<string, string>>? environment = null, CpuAffinity? affinity = null)
    {
        var ports = LoopbackPorts.Free(3);
        return StartOnAsync(name, assemblyName, [.. args], environment ?? ServiceEnvironment.Current(), affinity, ports, cancellationToken);
    }

    /// <summary>
    /// The same service started again on the same ports, once this one has been killed (<see cref="Kill"/>): a fault
    /// test's restart, after which clients that held this one's address reach the new process.
    /// </summary>
    /// <exception cref="InvalidOperationException">This process still runs 10 s later, or the new one exited or was not healthy in time.</exception>
    public async Task<LocalProcess> StartAgainAsync(CancellationToken cancellationToken)
    {
        // A killed process takes a moment to go, and its ports with it.
        using var exited = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        exited.CancelAfter(TimeSpan.FromSeconds(10));
        try
        {
            await _process.WaitForExitAsync(exited.Token);
        }
        catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            throw new InvalidOperationException($"{Name} still runs on {Address}; kill it before starting it again.");
        }

        return await StartOnAsync(Name, _assemblyName, _args, _environment, _affinity, [Address.Port, AdminAddress.Port, MetricsAddress.Port], cancellationToken);
    }

    private static async Task<LocalProcess> StartOnAsync(
        string name, string assemblyName, string[] args, IReadOnlyList<KeyValuePair<string, string>> environment, CpuAffinity? affinity,
        int[] ports, CancellationToken cancellationToken)
    {
        var (port, adminPort, metricsPort) = (ports[0], ports[1], ports[2]);
        var assembly = Path.Combine(AppContext.BaseDirectory, assemblyName + ".dll");
        if (!File.Exists(assembly))
        {
            throw new FileNotFoundException($"{assemblyName}.dll is not beside this program; reference its project so the build copies it here.", assembly);
        }

        string[] command = [.. affinity?.CommandPrefix ?? [], "dotnet", assembly, $"--Listen:Port={port}", $"--Listen:AdminPort={adminPort}", $"--Listen:MetricsPort={metricsPort}", "--Serilog:MinimumLevel:Default=Warning", .. args];
        var watched = !OperatingSystem.IsWindows();
        var start = new ProcessStartInfo(watched ? "/bin/sh" : command[0])
        {
            RedirectStandardInput = watched,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
            WorkingDirectory = AppContext.BaseDirectory,
        };
        foreach (var variable in ServiceEnvironment.RunnerOnly)
        {
            start.Environment.Remove(variable);
        }

        foreach (var (variable, value) in environment)
        {
            start.Environment[variable] = value;
        }

        foreach (var arg in watched ? ["-c", Watchdog, "sh", .. command] : command[1..])
        {
            start.ArgumentList.Add(arg);
        }

        var process = new Process { StartInfo = start };
        var local = new LocalProcess(name, assemblyName, args, environment, affinity, process, new Uri($"http://127.0.0.1:{port}/"), new Uri($"http://127.0.0.1:{adminPort}/"), new Uri($"http://127.0.0.1:{metricsPort}/"));
        process.OutputDataReceived += (_, e) => local.AppendOutput(e.Data);
        process.ErrorDataReceived += (_, e) => local.Append(e.Data);
        process.Start();
        if (!watched)
        {
            local._servicePid = process.Id;
        }
        Running[local] = 0;
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();

        try
        {
            await local.WaitHealthyAsync(cancellationToken);
        }
        catch
        {
            await local.DisposeAsync();
            throw;
        }

        return local;
    }

    /// <summary>Kills the process (for fault tests and clean-up); safe to call twice, and from two threads at once.</summary>
    /// <remarks>
    /// One kill at a time, and a second caller waits for the first to finish. Killing a tree stops each process
    /// (SIGSTOP) before it lists the children and kills it; if the harness ends inside that (a second Ctrl+C's
    /// <see cref="KillAll"/> racing the normal clean-up's kill, then exiting), a process is left stopped for good,
    /// where the watchdog can never see its pipe close: a stopped <c>/bin/sh</c> orphan, seen in the signal tests.
    /// </remarks>
    public void Kill()
    {
        lock (_killGate)
        {
            try
            {
                if (!_process.HasExited)
                {
                    _process.Kill(entireProcessTree: true);
                }
            }
            catch (InvalidOperationException)
            {
                // Never started or already reaped.
            }
        }
    }

    public async ValueTask DisposeAsync()
    {
        Kill();
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(10));
        try
        {
            await _process.WaitForExitAsync(timeout.Token);
        }
        catch (OperationCanceledException)
        {
            // The kill was sent; the OS reaps it.
        }

        Running.TryRemove(this, out _);
        _process.Dispose();
    }

    /// <summary>Kills every service started here that still runs, at once and without waiting; safe from any thread, any number of times.</summary>
    public static void KillAll()
    {
        foreach (var local in Running.Keys)
        {
            local.Kill();
        }
    }

    private async Task WaitHealthyAsync(CancellationToken cancellationToken)
    {
        try
        {
            await HealthProbe.WaitAsync(
                Name, AdminAddress, StartTimeout,
                () => _process.HasExited ? $"exited with code {_process.ExitCode} while starting" : null,
                cancellationToken);
        }
        catch (InvalidOperationException ex)
        {
            throw new InvalidOperationException($"{ex.Message}; its output:\n{Output}", ex);
        }
    }

    /// <summary>Standard output: the wrapper's first line gives the service's pid and is not the service's output.</summary>
    private void AppendOutput(string? line)
    {
        if (Volatile.Read(ref _servicePid) == 0 && line is not null && line.StartsWith(PidLine, StringComparison.Ordinal)
            && int.TryParse(line.AsSpan(PidLine.Length), System.Globalization.NumberStyles.None, System.Globalization.CultureInfo.InvariantCulture, out var pid))
        {
            Volatile.Write(ref _servicePid, pid);
            return;
        }

        Append(line);
    }

    private void Append(string? line)
    {
        if (line is not null)
        {
            lock (_output)
            {
                _output.AppendLine(line);
            }
        }
    }
}
