using System.Reflection;
using System.Text.RegularExpressions;
using System.Xml.Linq;

namespace CacheSerializer.Tests;

/// <summary>What the package says about itself agrees with the README and carries what nuget.org shows.</summary>
public sealed partial class PackageMetadataTests
{
    private static readonly XDocument Project = XDocument.Load(RepositoryFile("src/CacheSerializer/CacheSerializer.csproj"));

    [Fact]
    public void Version_ReadmeInstallLine_IsThePackedVersion()
    {
        string readme = File.ReadAllText(RepositoryFile("README.md"));
        Match installed = InstallLine().Match(readme);

        Assert.True(installed.Success, "the README has no <PackageReference Include=\"CacheSerializer\" Version=\"...\" /> line");
        Assert.Equal(Property("Version"), installed.Groups[1].Value);
        Assert.Equal(Property("Version"), typeof(ProtobufTranscoder).Assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()!.InformationalVersion.Split('+')[0]);
    }

    [Fact]
    public void Package_CarriesItsReadmeAndTags()
    {
        Assert.Equal("README.md", Property("PackageReadmeFile"));
        Assert.Contains(Project.Descendants("None"), item => (string?)item.Attribute("Include") == "../../README.md" && (string?)item.Attribute("Pack") == "true");
        Assert.Contains("protobuf-net", Property("PackageTags").Split(';'));
        Assert.Contains("memcached", Property("PackageTags").Split(';'));
    }

    [Fact]
    public void Dependencies_NewtonsoftJson_IsReferencedDirectlyAtAFixedVersion()
    {
        // Newtonsoft.Json.Bson 1.0.2 asks for Newtonsoft.Json 12.0.1 (advisory GHSA-5crp-9r3c-p9vr); the package names 13.0.4 itself.
        var versions = XDocument.Load(RepositoryFile("Directory.Packages.props"));

        Assert.Contains(Project.Descendants("PackageReference"), item => (string?)item.Attribute("Include") == "Newtonsoft.Json");
        Assert.Equal("13.0.4", Version(versions, "Newtonsoft.Json"));
        Assert.Equal("3.4.40", Version(versions, "protobuf-net"));
        Assert.Equal(new Version(13, 0, 0, 0), typeof(Newtonsoft.Json.JsonConvert).Assembly.GetName().Version);
    }

    private static string Version(XDocument versions, string package) =>
        versions.Descendants("PackageVersion").Single(item => (string?)item.Attribute("Include") == package).Attribute("Version")!.Value;

    private static string Property(string name) => Project.Descendants(name).Single().Value;

    internal static string RepositoryFile(string relative)
    {
        for (var directory = new DirectoryInfo(AppContext.BaseDirectory); directory is not null; directory = directory.Parent)
        {
            if (File.Exists(Path.Combine(directory.FullName, "CacheSerializer.sln")))
            {
                return Path.Combine(directory.FullName, relative);
            }
        }

        throw new FileNotFoundException($"No CacheSerializer.sln above {AppContext.BaseDirectory}.");
    }

    [GeneratedRegex("<PackageReference Include=\"CacheSerializer\" Version=\"([^\"]+)\" />")]
    private static partial Regex InstallLine();
}
