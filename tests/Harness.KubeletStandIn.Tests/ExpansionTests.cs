using Harness.KubeletStandIn.Pods;

namespace Harness.KubeletStandIn.Tests;

public sealed class ExpansionTests
{
    private static readonly Dictionary<string, string> Vars = new() { ["A"] = "one", ["EMPTY"] = "", ["N"] = "3" };

    [Theory]
    [InlineData("$(A)", "one")]
    [InlineData("x$(A)y$(N)", "xoney3")]
    [InlineData("$(EMPTY)|", "|")]
    [InlineData("$(UNDEFINED)", "$(UNDEFINED)")]
    [InlineData("$$(A)", "$(A)")]
    [InlineData("$$", "$")]
    [InlineData("$$$(A)", "$one")]
    [InlineData("$A", "$A")]
    [InlineData("${A}", "${A}")]
    [InlineData("$(A", "$(A")]
    [InlineData("tail$", "tail$")]
    [InlineData("$", "$")]
    [InlineData("$(JOB_COMPLETION_INDEX)/$(N)", "$(JOB_COMPLETION_INDEX)/3")]
    [InlineData("$()", "$()")]
    public void Expand_FollowsTheKubeletsRules(string input, string expected) =>
        Assert.Equal(expected, Expansion.Expand(input, Vars));

    [Fact]
    public void Expand_DoesNotExpandAValueTwice() =>
        Assert.Equal("$(A)", Expansion.Expand("$(B)", new Dictionary<string, string> { ["B"] = "$(A)", ["A"] = "no" }));
}
