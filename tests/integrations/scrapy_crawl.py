"""Run a real Scrapy crawl of the given URLs and print what was fetched, as JSON (used by test_scrapy.py).

python scrapy_crawl.py MODE URL...   (MODE: parser or middleware)
"""

from __future__ import annotations

import json
import sys

import scrapy
from scrapy.crawler import CrawlerProcess

USER_AGENT = "ExampleBot/1.0 (+https://example.com/bot)"


class ListSpider(scrapy.Spider):
    name = "list"

    def __init__(self, urls: list[str], fetched: list[str]) -> None:
        super().__init__()
        self.start_urls = urls
        self.fetched = fetched

    def parse(self, response: scrapy.http.Response) -> None:
        self.fetched.append(response.url)


def main() -> None:
    mode, urls = sys.argv[1], sys.argv[2:]
    settings = {
        "ROBOTSTXT_OBEY": True,
        "ROBOTSTXT_PARSER": "robotscope.integrations.scrapy.RobotParser",
        "USER_AGENT": USER_AGENT,
        "RETRY_ENABLED": False,
        "LOG_LEVEL": "ERROR",
        "TELNETCONSOLE_ENABLED": False,
        "HTTPERROR_ALLOW_ALL": True,
    }
    if mode == "middleware":
        settings["DOWNLOADER_MIDDLEWARES"] = {
            "scrapy.downloadermiddlewares.robotstxt.RobotsTxtMiddleware": None,
            "robotscope.integrations.scrapy.RobotsTxtMiddleware": 100,
        }
    fetched: list[str] = []
    process = CrawlerProcess(settings)
    crawler = process.create_crawler(ListSpider)
    process.crawl(crawler, urls=urls, fetched=fetched)
    process.start()
    stats = crawler.stats.get_stats()
    print(json.dumps({"fetched": sorted(fetched), "forbidden": stats.get("robotstxt/forbidden", 0)}))


if __name__ == "__main__":
    main()
