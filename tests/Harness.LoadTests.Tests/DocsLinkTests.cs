namespace Harness.LoadTests.Tests;

/// <summary>
/// The README and docs/ stay a house a newcomer can enter: every relative link reaches its file (and heading), every
/// page is in docs/README.md's index, and the README stays short enough to read at once.
/// </summary>
public sealed class DocsLinkTests : IDisposable
{
    private const int ReadmeLineLimit = 250;

    private readonly string _scratch = Directory.CreateTempSubdirectory("harness-doc-links-").FullName;

    public void Dispose() => Directory.Delete(_scratch, recursive: true);

    [Fact]
    public void EveryRelativeLink_InTheReadmeAndDocs_ReachesAFileAndHeading()
    {
        var root = RepositoryRoot();
        var pages = Directory.GetFiles(Path.Combine(root, "docs"), "*.md")
            .Select(p => Path.GetRelativePath(root, p))
            .Prepend("README.md")
            .Order(StringComparer.Ordinal)
            .ToList();

        var broken = MarkdownLinks.BrokenLinks(root, pages);

        Assert.True(broken.Count == 0, $"{broken.Count} broken link(s):\n" + string.Join('\n', broken));
    }

    [Fact]
    public void TheReadme_StaysUnderItsLineLimit()
    {
        var lines = File.ReadAllLines(Path.Combine(RepositoryRoot(), "README.md")).Length;

        Assert.True(lines < ReadmeLineLimit, $"README.md has {lines} lines; keep it under {ReadmeLineLimit} and move the rest to a docs/ page.");
    }

    [Fact]
    public void EveryDocsPage_IsListedInTheIndex()
    {
        var docs = Path.Combine(RepositoryRoot(), "docs");
        var listed = MarkdownLinks.Links(File.ReadAllText(Path.Combine(docs, "README.md")))
            .Select(l => l.Target.Split('#')[0])
            .ToHashSet(StringComparer.Ordinal);

        var missing = Directory.GetFiles(docs, "*.md")
            .Select(Path.GetFileName)
            .Where(name => name != "README.md" && !listed.Contains(name!))
            .Order(StringComparer.Ordinal)
            .ToList();

        Assert.True(missing.Count == 0, "docs/README.md does not link: " + string.Join(", ", missing));
    }

    [Fact]
    public void ABrokenLink_IsFound_ByFileAndByHeading()
    {
        File.WriteAllText(Path.Combine(_scratch, "target.md"), "# Target\n\n## Load your own service: `--call`\n");
        File.WriteAllText(
            Path.Combine(_scratch, "page.md"),
            """
            # Page

            [fine](target.md) and [fine too](target.md#load-your-own-service---call), [here](#page), [web](https://example.org/x.md)
            [gone](missing.md)
            [no such heading](target.md#load-your-own-service)

            ```sh
            [in code](nowhere.md)
            ```
            `[inline code](nowhere.md)`
            """);

        var broken = MarkdownLinks.BrokenLinks(_scratch, ["page.md"]);

        Assert.Equal(
            ["page.md:4: (missing.md) no such file", "page.md:5: (target.md#load-your-own-service) no heading with the anchor #load-your-own-service"],
            broken.Select(b => b.ToString()));
    }

    [Theory]
    [InlineData("`--config FILE` and `run-config.json`", "--config-file-and-run-configjson")]
    [InlineData("Repetitions until settled (`--repeat auto[:MAX]`)", "repetitions-until-settled---repeat-automax")]
    [InlineData("`harness report RUN` and `harness compare RUN_A RUN_B [RUN_C…]`", "harness-report-run-and-harness-compare-run_a-run_b-run_c")]
    [InlineData("gRPC ÷ SOAP, by [mode](x.md)", "grpc--soap-by-mode")]
    [InlineData("Wake-up: *AutoResetEvent* vs LeanAutoResetEvent", "wake-up-autoresetevent-vs-leanautoresetevent")]
    public void AHeadingsAnchor_FollowsGitHubsRules(string heading, string anchor)
    {
        var slug = MarkdownLinks.Slug(heading);

        Assert.Equal(anchor, slug);
    }

    [Fact]
    public void ARepeatedHeading_GetsANumberedAnchor_AndHeadingsInCodeGetNone()
    {
        var anchors = MarkdownLinks.Anchors("# Runs\n\n## Figures\n\n```\n# Figures in code\n```\n\n## Figures\n\n### Figures ##\n");

        Assert.Equal(["figures", "figures-1", "figures-2", "runs"], anchors.Order(StringComparer.Ordinal));
    }

    private static string RepositoryRoot()
    {
        for (var folder = new DirectoryInfo(AppContext.BaseDirectory); folder is not null; folder = folder.Parent)
        {
            if (File.Exists(Path.Combine(folder.FullName, "Harness.sln")))
            {
                return folder.FullName;
            }
        }

        throw new DirectoryNotFoundException($"no Harness.sln above {AppContext.BaseDirectory}");
    }
}
