#!/bin/sh
echo "2.4.0"
