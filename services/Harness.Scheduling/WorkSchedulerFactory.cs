namespace Harness.Scheduling;

/// <summary>Creates the scheduler a service's <see cref="SchedulingOptions"/> ask for.</summary>
public static class WorkSchedulerFactory
{
    /// <exception cref="ArgumentException"><see cref="SchedulingOptions.Mode"/> is not one of <see cref="SchedulingOptions.ModeNames"/>.</exception>
    public static IWorkScheduler Create(SchedulingOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        if (!SchedulingOptions.TryParseMode(options.Mode, out var mode))
        {
            throw new ArgumentException(
                $"Unknown scheduling mode '{options.Mode}'. Valid modes: {string.Join(", ", SchedulingOptions.ModeNames.Keys)}.",
                nameof(options));
        }

        return mode switch
        {
            SchedulingMode.ThreadPool => new ThreadPoolScheduler(),
            SchedulingMode.Iocp => new IocpScheduler(options),
            SchedulingMode.CustomPool => new CustomThreadPool(options),
            _ => throw new ArgumentOutOfRangeException(nameof(options), mode, "No scheduler implements this mode."),
        };
    }
}
