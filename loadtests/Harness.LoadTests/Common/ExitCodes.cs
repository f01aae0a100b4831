namespace Harness.LoadTests.Common;

/// <summary>The <c>harness</c> command's exit codes, all of them; docs/running.md's "Exit codes" lists the same.</summary>
internal static class ExitCodes
{
    public const int Ok = 0;

    /// <summary>An <c>--assert</c> threshold failed; the report was written.</summary>
    public const int ThresholdBreached = 1;

    /// <summary>Bad input (an option, a run folder, an unreachable Docker engine): nothing was run.</summary>
    public const int Usage = 2;

    /// <summary>The run folder or the report could not be written (disk full, no permission); the raw files are complete.</summary>
    public const int OutputFailed = 3;

    /// <summary>The raw files could not be written during the run, which stopped at once; what was written before is kept.</summary>
    public const int RecordingFailed = 4;

    /// <summary>Anything else that stopped the run; the message says what.</summary>
    public const int RunFailed = 5;

    /// <summary>Distributed run: the agents did not all meet (one did not register or come to a meeting within <c>--agent-timeout</c>, one died, the coordinator went silent), or <c>merge --wait</c> found an agent unfinished.</summary>
    public const int AgentsMissing = 6;

    /// <summary><c>compare --fail-on-regression</c> could not tell: no figure is shown worse than the limit, but some could be.</summary>
    public const int GateInconclusive = 7;

    /// <summary>Ctrl+C or SIGTERM: what was recorded was written, and the report rendered from it.</summary>
    public const int Interrupted = 130;

    /// <summary>A second SIGTERM during the clean-up of the first: the services were killed, the report may be missing.</summary>
    public const int Terminated = 143;
}
