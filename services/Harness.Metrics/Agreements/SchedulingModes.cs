namespace Harness.Agreements;

/// <summary>
/// The scheduling modes by the names a service's configuration and the runner's <c>--modes</c> use, and the one
/// configuration key that chooses a service's mode, spelled here once: as a key (<c>Scheduling:Mode</c>), as an
/// environment variable (<c>Scheduling__Mode</c>) and as a command-line argument.
/// </summary>
public static class SchedulingModes
{
    /// <summary>The configuration section of the scheduler's settings.</summary>
    public const string Section = "Scheduling";

    /// <summary>The key that chooses the mode.</summary>
    public const string ModeKey = Section + ":Mode";

    public const string ThreadPool = "threadpool";

    public const string Iocp = "iocp";

    public const string CustomPool = "custompool";

    /// <summary>Every mode, in the order the runner runs them by default and messages list them.</summary>
    public static IReadOnlyList<string> Names { get; } = [ThreadPool, Iocp, CustomPool];

    /// <summary><see cref="ModeKey"/> as an environment variable: <c>Scheduling__Mode</c>.</summary>
    public static string ModeVariable { get; } = Variable(ModeKey);

    /// <summary>A configuration key as an environment variable (.NET reads <c>__</c> as the section separator).</summary>
    public static string Variable(string key) => key.Replace(":", "__", StringComparison.Ordinal);

    /// <summary>The command-line argument that starts a service in <paramref name="mode"/>.</summary>
    public static string ModeArgument(string mode) => $"--{ModeKey}={mode}";
}
