namespace Harness.LoadTests.Targets;

/// <summary>
/// The "services" of a user's scenario app run without <c>--target</c>: none. Each mode is a label, and its one target
/// (<see cref="ServiceTarget.None"/>) has no address, since the scenarios' steps know where they send.
/// </summary>
internal sealed class NoTargets : ITargetProvider
{
    public Task<IReadOnlyList<ServiceTarget>> AcquireAsync(string mode, CancellationToken cancellationToken) =>
        Task.FromResult<IReadOnlyList<ServiceTarget>>([ServiceTarget.None(mode)]);

    public Task ReleaseAsync(string mode) => Task.CompletedTask;

    public ValueTask DisposeAsync() => ValueTask.CompletedTask;
}
