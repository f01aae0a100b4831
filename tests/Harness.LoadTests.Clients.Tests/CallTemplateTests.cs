
namespace Harness.LoadTests.Clients.Tests;

public sealed class CallTemplateTests
{
    [Fact]
    public void TextWithoutPlaceholders_IsConstant_AndRendersAsIs()
    {
        var template = CallTemplate.Parse("""{"name":"x"}""", "--data");

        Assert.True(template.IsConstant);
        Assert.Equal("""{"name":"x"}""", template.Render(5, 2, new Random(1)));
    }

    [Fact]
    public void Placeholders_RenderTheCallsNumbers()
    {
        var template = CallTemplate.Parse("""{"seq":{{seq}},"user":"u{{ user }}","n":{{rand 3 3}},"id":"{{uuid}}"}""", "--data");

        var text = template.Render(42, 7, new Random(1));

        Assert.False(template.IsConstant);
        Assert.Matches("""^\{"seq":42,"user":"u7","n":3,"id":"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"\}$""", text);
    }

    [Fact]
    public void Rand_StaysWithinItsBounds_AndReachesBoth()
    {
        var template = CallTemplate.Parse("{{rand -2 2}}", "--data");
        var random = new Random(7);

        var values = Enumerable.Range(0, 500).Select(_ => int.Parse(template.Render(1, 1, random), System.Globalization.CultureInfo.InvariantCulture)).ToHashSet();

        Assert.Equal([-2, -1, 0, 1, 2], values.Order());
    }

    [Fact]
    public void Samples_AreTheTemplatesEnds()
    {
        var template = CallTemplate.Parse("{{rand 5 9}}/{{seq}}", "--data");

        Assert.Equal("5/1", template.Sample(high: false));
        Assert.Equal("9/1000000000", template.Sample(high: true));
    }

    [Theory]
    [InlineData("""{"a":{{nope}}}""", "'{{nope}}' at character 6 is not a placeholder")]
    [InlineData("""{"a":{{seq""", "'{{seq' at character 6 is never closed with }}")]
    [InlineData("{{rand 9 1}}", "'{{rand 9 1}}' at character 1 needs two whole numbers, MIN no greater than MAX")]
    [InlineData("{{rand x 1}}", "needs two whole numbers")]
    public void BadPlaceholder_IsRefused_ListingTheValidOnes(string text, string expected)
    {
        var refusal = Assert.Throws<CallSetupException>(() => CallTemplate.Parse(text, "--data"));

        Assert.StartsWith("--data: ", refusal.Message, StringComparison.Ordinal);
        Assert.Contains(expected, refusal.Message, StringComparison.Ordinal);
        Assert.EndsWith("valid placeholders are {{seq}}, {{user}}, {{rand MIN MAX}}, {{uuid}}, {{feed.COLUMN}} (with --data-feed).", refusal.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("SayHello", "say-hello")]
    [InlineData("CallThirdParty", "call-third-party")]
    [InlineData("GetHTTPStatus", "get-http-status")]
    [InlineData("add", "add")]
    [InlineData("Get_user.v2", "get-user-v2")]
    public void ShortName_IsTheKebabOfTheMethod(string method, string expected)
    {
        var request = new CallRequest("grpc", $"pkg.Service/{method}", CallTemplate.Parse("{}", "--data"), []);

        Assert.Equal(expected, request.ShortName);
    }
}
