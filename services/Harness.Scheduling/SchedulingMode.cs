using System.ComponentModel;

namespace Harness.Scheduling;

/// <summary>How a service runs its operations.</summary>
/// <remarks>
/// Configuration binds it through <see cref="SchedulingModeConverter"/>: by the names in
/// <see cref="SchedulingOptions.ModeNames"/> only, in any case.
/// </remarks>
[TypeConverter(typeof(SchedulingModeConverter))]
public enum SchedulingMode
{
    /// <summary>The default .NET ThreadPool: operations run where the RPC stack dispatches them.</summary>
    ThreadPool,

    /// <summary>An emulation of the I/O completion port rule classic WCF relied on: at most N run at once, LIFO wake-up.</summary>
    Iocp,

    /// <summary>A dedicated pool with min/max threads and an idle timeout that starts a thread at once when all are busy.</summary>
    CustomPool,
}
