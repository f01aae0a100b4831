using System.Runtime.InteropServices;
using Harness.LoadTests.Common;

namespace Harness.LoadTests.Running;

/// <summary>
/// Ctrl+C and SIGTERM (docker stop, kill). The first cancels the run, which then writes what it recorded and stops
/// the services it started (exit code 130). A later one cuts that short: it kills the child processes and removes
/// matrix's containers itself (<see cref="EmergencyStop"/>), then ends the process, 130 after Ctrl+C and 143 after
/// SIGTERM, whichever thread gets there first.
/// </summary>
/// <remarks>
/// The runtime hands each termination signal to a thread of its own, so two signals in quick succession can be
/// handled at once: a counter, not the token's state, says which one was first. Killing the services also ends the
/// run's own clean-up, which waits for them, so <c>Main</c> may return while the handler is still removing
/// containers; <see cref="ExitCode"/> makes it wait for the handler and return the handler's code.
/// </remarks>
internal sealed class Interruption : IDisposable
{
    private readonly CancellationTokenSource _cancellation = new();
    private readonly ManualResetEventSlim _stopped = new();
    private readonly Action _emergencyStop;
    private readonly Action<int> _exit;
    private readonly List<PosixSignalRegistration> _registrations = [];
    private int _signals;
    private int _forcedExitCode;

    internal Interruption(Action emergencyStop, Action<int> exit)
    {
        _emergencyStop = emergencyStop;
        _exit = exit;
    }

    public CancellationToken Token => _cancellation.Token;

    /// <summary>Handles SIGINT and SIGTERM for this process until disposed.</summary>
    public static Interruption Register()
    {
        var interruption = new Interruption(EmergencyStop.Run, Environment.Exit);
        foreach (var signal in (PosixSignal[])[PosixSignal.SIGINT, PosixSignal.SIGTERM])
        {
            interruption._registrations.Add(PosixSignalRegistration.Create(signal, context =>
            {
                context.Cancel = true;
                interruption.OnSignal(context.Signal);
            }));
        }

        return interruption;
    }

    internal void OnSignal(PosixSignal signal)
    {
        if (Interlocked.Increment(ref _signals) == 1)
        {
            _cancellation.Cancel();
            return;
        }

        var code = signal == PosixSignal.SIGINT ? ExitCodes.Interrupted : ExitCodes.Terminated;
        if (Interlocked.CompareExchange(ref _forcedExitCode, code, 0) != 0)
        {
            return; // a third signal: the second one's stop is under way
        }

        try
        {
            _emergencyStop();
        }
        finally
        {
            _stopped.Set();
        }

        _exit(code);
    }

    /// <summary>
    /// The process's exit code once the command returned <paramref name="commandExitCode"/>: the command's, unless
    /// a second signal came first, whose stop this waits for (each of its steps is bounded).
    /// </summary>
    public int ExitCode(int commandExitCode)
    {
        if (Volatile.Read(ref _forcedExitCode) == 0)
        {
            return commandExitCode;
        }

        _stopped.Wait();
        return _forcedExitCode;
    }

    public void Dispose()
    {
        foreach (var registration in _registrations)
        {
            registration.Dispose();
        }

        _cancellation.Dispose();
        _stopped.Dispose();
    }
}
