using Harness.LoadTests.Calls;

namespace Harness.LoadTests.Running;

internal sealed partial record RunOptions
{
    /// <summary><c>--call</c> as given, checked for form; null when the run loads the harness's own operations.</summary>
    public CallRequest? CallRequest { get; init; }

    /// <summary><see cref="CallRequest"/> resolved against the first target before any load (<see cref="CallResolver"/>).</summary>
    public CallPlan? Call { get; init; }
}
