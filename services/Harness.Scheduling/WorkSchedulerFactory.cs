namespace Harness.Scheduling;

/// <summary>Creates the scheduler a service's <see cref="SchedulingOptions"/> ask for.</summary>
public static class WorkSchedulerFactory
{
    /// <exception cref="ArgumentOutOfRangeException"><see cref="SchedulingOptions.Mode"/> is not a defined mode.</exception>
    public static IWorkScheduler Create(SchedulingOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        return options.Mode switch
        {
            SchedulingMode.ThreadPool => new ThreadPoolScheduler(),
            SchedulingMode.Iocp => new IocpScheduler(options),
            SchedulingMode.CustomPool => new CustomThreadPool(options),
            _ => throw new ArgumentOutOfRangeException(nameof(options), options.Mode, "No scheduler implements this mode."),
        };
    }
}
