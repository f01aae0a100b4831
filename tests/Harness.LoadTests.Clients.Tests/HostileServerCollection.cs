namespace Harness.LoadTests.Clients.Tests;

/// <summary>
/// The hostile-server tests, alone: floods and failing calls by the thousand starve a test beside them (the runner's
/// whole-run hostile tests keep a collection of their own for the same reason).
/// </summary>
[CollectionDefinition(nameof(HostileServerCollection), DisableParallelization = true)]
public sealed class HostileServerCollection;
