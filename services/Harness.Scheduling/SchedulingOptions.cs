using Harness.Agreements;

namespace Harness.Scheduling;

/// <summary>The <c>Scheduling</c> configuration section (environment: <c>Scheduling__Mode</c>, <c>Scheduling__IocpConcurrency</c>, ...).</summary>
public sealed class SchedulingOptions
{
    public const string SectionName = SchedulingModes.Section;

    /// <summary>The mode; configuration names it as in <see cref="ModeNames"/>, in any case (<see cref="SchedulingModeConverter"/>).</summary>
    public SchedulingMode Mode { get; set; } = SchedulingMode.ThreadPool;

    /// <summary>Iocp: operations allowed to run at once; 0 means <see cref="Environment.ProcessorCount"/>.</summary>
    public int IocpConcurrency { get; set; }

    /// <summary>Iocp: ceiling on threads, reached only when many operations block in declared regions.</summary>
    public int IocpMaxThreads { get; set; } = 1000;

    /// <summary>CustomPool: threads kept even when idle.</summary>
    public int CustomPoolMinThreads { get; set; } = 4;

    /// <summary>CustomPool: the most threads the pool will start.</summary>
    public int CustomPoolMaxThreads { get; set; } = 1000;

    /// <summary>CustomPool and Iocp: how long a thread above the minimum waits for work before it retires.</summary>
    public TimeSpan IdleTimeout { get; set; } = TimeSpan.FromSeconds(30);

    /// <summary>The accepted spellings of each mode, as written in configuration.</summary>
    public static IReadOnlyDictionary<string, SchedulingMode> ModeNames { get; } =
        new Dictionary<string, SchedulingMode>(StringComparer.OrdinalIgnoreCase)
        {
            [SchedulingModes.ThreadPool] = SchedulingMode.ThreadPool,
            [SchedulingModes.Iocp] = SchedulingMode.Iocp,
            [SchedulingModes.CustomPool] = SchedulingMode.CustomPool,
        };

    /// <summary>Looks a configuration name up in <see cref="ModeNames"/>, ignoring case and surrounding spaces.</summary>
    public static bool TryParseMode(string? value, out SchedulingMode mode)
    {
        mode = default;
        return value is not null && ModeNames.TryGetValue(value.Trim(), out mode);
    }

    public static string ToName(SchedulingMode mode) => mode switch
    {
        SchedulingMode.ThreadPool => SchedulingModes.ThreadPool,
        SchedulingMode.Iocp => SchedulingModes.Iocp,
        SchedulingMode.CustomPool => SchedulingModes.CustomPool,
        _ => throw new ArgumentOutOfRangeException(nameof(mode), mode, null),
    };

    public int EffectiveIocpConcurrency => IocpConcurrency > 0 ? IocpConcurrency : Environment.ProcessorCount;
}
