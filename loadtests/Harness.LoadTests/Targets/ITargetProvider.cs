namespace Harness.LoadTests.Targets;

/// <summary>Where a run's services come from: processes started here, or services someone else runs.</summary>
internal interface ITargetProvider : IAsyncDisposable
{
    /// <summary>Makes the targets of one mode ready (starting them if need be) and returns them.</summary>
    Task<IReadOnlyList<ServiceTarget>> AcquireAsync(string mode, CancellationToken cancellationToken);

    /// <summary>Done with a mode's targets: a local provider stops them.</summary>
    Task ReleaseAsync(string mode);
}
