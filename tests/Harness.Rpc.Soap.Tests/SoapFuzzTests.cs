using System.Net;
using System.Text;
using System.Xml.Linq;
using Microsoft.Extensions.Logging;

namespace Harness.Rpc.Soap.Tests;

/// <summary>
/// Random and mutated requests: each must get a deliberate answer (a reply, a fault, or an empty 4xx), never a bare
/// 5xx or an error in the log, and the server must keep serving. The generator is seeded, so a failure names the case
/// that reproduces it.
/// </summary>
[Collection(SoapServerCollection.Name)]
public sealed class SoapFuzzTests(SoapServerFixture server)
{
    private const int Seed = 20261123;
    private const int Cases = 300;

    private static readonly string[] Valid =
    [
        SoapServerFixture.Envelope("<Compute xmlns=\"http://tempuri.org/\"><iterations>7</iterations></Compute>"),
        SoapServerFixture.Envelope("<Echo xmlns=\"http://tempuri.org/\"><text>a &amp; b &#x263A;</text></Echo>"),
        SoapServerFixture.Envelope(
            "<ComputeAsync xmlns=\"http://tempuri.org/\"><iterations>3</iterations></ComputeAsync>",
            "<Trace xmlns=\"urn:t\" s:mustUnderstand=\"0\">x</Trace>"),
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>"
            + SoapServerFixture.Envelope("<Echo xmlns=\"http://tempuri.org/\"><text><![CDATA[<x>]]></text></Echo>"),
    ];

    private static readonly string[] Actions =
    [
        "\"http://tempuri.org/Calculator/Compute\"", "\"http://tempuri.org/Calculator/Echo\"",
        "\"http://tempuri.org/Calculator/ComputeAsync\"", "http://tempuri.org/Calculator/Echo", "\"urn:nope\"", "\"\"", "%ZZ%E0%A4%A", "\"",
    ];

    private static readonly string?[] ContentTypes =
    [
        "text/xml; charset=utf-8", "text/xml", "text/xml; charset=utf-16", "text/xml; charset=\"UTF-16BE\"",
        "text/xml; charset=bogus", "application/soap+xml; charset=utf-8", "text/xml; charset=", "text/xml;;;", null,
    ];

    [Fact]
    public async Task RandomAndMutatedRequests_AllGetADeliberateAnswer_AndTheServerKeepsServing()
    {
        var random = new Random(Seed);
        int errorsBefore = ErrorCount();
        var failures = new List<string>();

        for (int i = 0; i < Cases; i++)
        {
            (byte[] body, string description) = Generate(random);
            string? action = random.Next(8) == 0 ? null : Actions[random.Next(Actions.Length)];
            string? contentType = random.Next(3) == 0 ? ContentTypes[random.Next(ContentTypes.Length)] : ContentTypes[0];
            if (description.Contains("utf-16", StringComparison.Ordinal) && random.Next(2) == 0)
            {
                contentType = "text/xml";
            }

            string path = random.Next(4) == 0 ? SoapServerFixture.SmallPath : SoapServerFixture.CalculatorPath;
            bool chunked = random.Next(5) == 0;

            RawResponse response = await server.SendAsync(HttpMethod.Post, path, body, action, contentType, chunked);

            string? problem = Judge(response);
            if (problem is not null)
            {
                failures.Add($"case {i} (seed {Seed}; {description}; action {action}; content type {contentType}; {path}; chunked {chunked}): {problem}");
            }
        }

        Assert.True(failures.Count == 0, string.Join(Environment.NewLine, failures));
        Assert.Equal(errorsBefore, ErrorCount());
        await server.AssertStillServingAsync();
    }

    private int ErrorCount() => server.Logs.Entries.Count(entry => entry.Level >= LogLevel.Error);

    /// <summary>Null when the answer is one the server gives on purpose; otherwise what is wrong with it.</summary>
    private static string? Judge(RawResponse response)
    {
        switch (response.Status)
        {
            case HttpStatusCode.BadRequest or HttpStatusCode.RequestEntityTooLarge or HttpStatusCode.UnsupportedMediaType:
                return response.Body.Length == 0 ? null : $"{(int)response.Status} with a body";
            case HttpStatusCode.OK or HttpStatusCode.InternalServerError:
                try
                {
                    XElement body = XDocument.Parse(response.Body).Root!.Element(XName.Get("Body", "http://schemas.xmlsoap.org/soap/envelope/"))!;
                    bool fault = body.Element(XName.Get("Fault", "http://schemas.xmlsoap.org/soap/envelope/")) is not null;
                    return fault == (response.Status == HttpStatusCode.InternalServerError) ? null : $"{(int)response.Status} with fault={fault}";
                }
                catch (Exception e) when (e is System.Xml.XmlException or NullReferenceException)
                {
                    return $"{(int)response.Status} without a SOAP envelope: '{response.Body}'";
                }

            default:
                return $"unexpected status {(int)response.Status}";
        }
    }

    private static (byte[] Body, string Description) Generate(Random random)
    {
        if (random.Next(10) == 0)
        {
            var noise = new byte[random.Next(0, 200)];
            random.NextBytes(noise);
            return (noise, $"{noise.Length} random bytes");
        }

        string text = Valid[random.Next(Valid.Length)];
        var steps = new List<string>();
        if (random.Next(4) == 0)
        {
            (text, string swap) = SwapName(random, text);
            steps.Add(swap);
        }

        byte[] body = Encode(random, text, steps);
        int mutations = random.Next(0, 4);
        for (int m = 0; m < mutations; m++)
        {
            body = Mutate(random, body, steps);
        }

        return (body, steps.Count == 0 ? "valid" : string.Join(", ", steps));
    }

    private static (string Text, string Step) SwapName(Random random, string text)
    {
        (string from, string to)[] swaps =
        [
            ("Compute", "Echo"), ("Echo", "Compute"), ("http://tempuri.org/", "urn:other"), ("iterations", "text"),
            ("s:Body", "s:Bdy"), ("<s:Body>", "<s:Body><extra/>"), ("</s:Envelope>", "</s:Envelope><more/>"),
            ("7", "seven"), ("7", "99999999999"), ("<s:Body>", "<s:Header><h xmlns=\"urn:h\" s:mustUnderstand=\"1\"/></s:Header><s:Body>"),
        ];
        (string from, string to) = swaps[random.Next(swaps.Length)];
        return (text.Replace(from, to, StringComparison.Ordinal), $"'{from}'→'{to}'");
    }

    private static byte[] Encode(Random random, string text, List<string> steps)
    {
        switch (random.Next(6))
        {
            case 0:
                steps.Add("utf-16 with BOM");
                return [.. Encoding.Unicode.GetPreamble(), .. Encoding.Unicode.GetBytes(text)];
            case 1:
                steps.Add("utf-16BE with BOM");
                return [.. Encoding.BigEndianUnicode.GetPreamble(), .. Encoding.BigEndianUnicode.GetBytes(text)];
            case 2:
                steps.Add("utf-16 without BOM");
                return Encoding.Unicode.GetBytes(text);
            default:
                return Encoding.UTF8.GetBytes(text);
        }
    }

    private static byte[] Mutate(Random random, byte[] body, List<string> steps)
    {
        if (body.Length == 0)
        {
            return body;
        }

        int at = random.Next(body.Length);
        int span = Math.Min(body.Length - at, random.Next(1, 16));
        switch (random.Next(6))
        {
            case 0:
                body = [.. body];
                body[at] ^= (byte)(1 << random.Next(8));
                steps.Add($"bit flip at {at}");
                return body;
            case 1:
                steps.Add($"truncated at {at}");
                return body[..at];
            case 2:
                byte[] inserted = [(byte)'<', (byte)'&', 0x00, 0xFF, 0xC3, (byte)'"', (byte)']', 0xEF];
                byte pick = inserted[random.Next(inserted.Length)];
                steps.Add($"0x{pick:X2} inserted at {at}");
                return [.. body[..at], pick, .. body[at..]];
            case 3:
                steps.Add($"{span} bytes removed at {at}");
                return [.. body[..at], .. body[(at + span)..]];
            case 4:
                steps.Add($"{span} bytes repeated at {at}");
                return [.. body[..(at + span)], .. body[at..]];
            default:
                steps.Add("nested 40 deep");
                byte[] open = Encoding.UTF8.GetBytes(string.Concat(Enumerable.Repeat("<n>", 40)));
                return [.. body[..at], .. open, .. body[at..]];
        }
    }
}
